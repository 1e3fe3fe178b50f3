import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  type ChatCompletionChunk,
  EnginePool,
  InvalidJobError,
  type JobIdentity,
  type StreamingChatCompletionRequest,
  type TranslationParams,
} from '../src/index.js';
import { translationRequest } from '../src/engine.js';
import { createFakeEngine } from '../src/testing/index.js';
import { chat } from './helpers.js';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

const LONG = Array.from({ length: 30 }, (_, i) => `w${i}`).join(' ');

/** A fake engine that translates natively: it streams the text back in capitals, word by word. */
function nativePool() {
  const seen: Array<{ params: TranslationParams; job: JobIdentity | undefined }> = [];
  const chats: StreamingChatCompletionRequest[] = [];
  const pool = new EnginePool({
    size: 1,
    createEngine: async () => {
      const engine = createFakeEngine({
        reply: (request) => String(request.messages.at(-1)?.content).toUpperCase(),
        tokenMs: 10,
      });
      const create = engine.chat.completions.create.bind(engine.chat.completions);
      engine.chat.completions.create = (request, options) => {
        chats.push(request);
        return create(request, options) as Promise<AsyncIterable<ChatCompletionChunk>>;
      };
      return Object.assign(engine, {
        translation: {
          create: (params: TranslationParams, options?: { job?: JobIdentity; signal?: AbortSignal }) => {
            seen.push({ params, job: options?.job });
            return create({ messages: [{ role: 'user', content: params.text }], stream: true }, options) as Promise<
              AsyncIterable<ChatCompletionChunk>
            >;
          },
        },
      });
    },
  });
  return { pool, seen, chats };
}

describe('translation jobs', () => {
  it('a chat engine gets the translation prompt, the one translationRequest builds', async () => {
    const requests: StreamingChatCompletionRequest[] = [];
    const pool = new EnginePool({
      size: 1,
      createEngine: async () =>
        createFakeEngine({
          reply: (request) => {
            requests.push(request);
            return 'Bonjour';
          },
        }),
    });
    await pool.load();
    const done = pool.submit({ kind: 'translation', params: { text: 'Hello', from: 'en', to: 'fr' } });
    await vi.runAllTimersAsync();
    expect(await done).toMatchObject({ status: 'done', text: 'Bonjour' });
    const expected = translationRequest({ text: 'Hello', from: 'en', to: 'fr' });
    expect(requests[0]).toMatchObject({ ...expected, stream: true });
    expect(String(expected.messages[0]?.content)).toContain('from English into French');
  });

  it('an engine that translates natively gets the params and the job identity, never a chat', async () => {
    const { pool, seen, chats } = nativePool();
    await pool.load();
    const done = pool.submit({ id: 't1', kind: 'translation', task: 'page', params: { text: 'good day', to: 'fr' } });
    await vi.runAllTimersAsync();
    expect(await done).toMatchObject({ status: 'done', text: 'GOOD DAY' });
    expect(seen).toEqual([
      {
        params: { text: 'good day', to: 'fr' },
        job: { id: 't1', kind: 'translation', task: 'page', session: undefined, priority: 'normal', preemptible: false, owner: undefined },
      },
    ]);
    // The native call is the only one: no chat went to the engine besides it.
    expect(chats.filter((request) => String(request.messages[0]?.content).startsWith('You are'))).toEqual([]);
  });

  it('an interactive job preempts a preemptible translation, which resolves preempted with its partial text', async () => {
    const { pool } = nativePool();
    await pool.load();
    const batch = pool.submit({ kind: 'translation', task: 'page', preemptible: true, params: { text: LONG, to: 'fr' } });
    await vi.advanceTimersByTimeAsync(35);
    const ghost = pool.submit(chat('g', { session: 'ghost', priority: 'interactive' }));
    const victim = await vi.waitFor(() => batch);
    expect(victim).toMatchObject({ status: 'preempted' });
    expect(victim.text.length).toBeGreaterThan(0);
    expect(victim.text.length).toBeLessThan(LONG.length);
    await vi.runAllTimersAsync();
    expect((await ghost).status).toBe('done');
  });

  it('a later translation of the same session supersedes the one before', async () => {
    const { pool } = nativePool();
    await pool.load();
    const first = pool.submit({ kind: 'translation', session: 's', params: { text: LONG, to: 'fr' } });
    await vi.advanceTimersByTimeAsync(15);
    const second = pool.submit({ kind: 'translation', session: 's', params: { text: 'b', to: 'fr' } });
    await vi.runAllTimersAsync();
    expect(await first).toMatchObject({ status: 'cancelled', cancelReason: 'supersede' });
    expect(await second).toMatchObject({ status: 'done', text: 'B' });
  });

  it.each([
    ['no text', { to: 'fr' }, /"params\.text" must be a string/],
    ['no target', { text: 'x' }, /"params\.to" must be a language such as "fr"; it got undefined/],
    ['an empty source', { text: 'x', to: 'fr', from: '' }, /"params\.from" must be a language/],
  ])('a translation with %s resolves with an InvalidJobError and touches nothing', async (_name, params, message) => {
    const { pool } = nativePool();
    await pool.load();
    const running = pool.submit({ kind: 'translation', params: { text: 'a b', to: 'fr' } });
    const result = await pool.submit({ kind: 'translation', params } as never);
    expect(result.error).toBeInstanceOf(InvalidJobError);
    expect(result.error?.message).toMatch(message);
    await vi.runAllTimersAsync();
    expect((await running).status).toBe('done');
  });
});
