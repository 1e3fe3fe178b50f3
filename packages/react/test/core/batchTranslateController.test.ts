// @vitest-environment node
import { InklingError, type JobResult, type JobSpec, type Pool, type StreamingChatCompletionRequest } from '@inkling/scheduler';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  type BatchTranslateOptions,
  type BatchTranslateState,
  BatchTranslateController,
} from '../../src/translate/core/batchTranslateController.js';
import { inklingKeys, mapCache } from '../../src/base/core/cacheKeys.js';
import { engineCalls, fakePool, flushMicrotasks, manualFrames } from './helpers.js';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

/** The text of a chat request's last message. */
const lastContent = (request: unknown) => String((request as StreamingChatCompletionRequest).messages.at(-1)?.content);

/** The fake "translation": the source upper-cased, word by word. */
const shout = (request: StreamingChatCompletionRequest) => String(request.messages.at(-1)?.content).toUpperCase();

async function setup(items: string[], engine: { prefillMs?: number; tokenMs?: number } = {}, cache = mapCache()) {
  const { pool, createEngine } = fakePool({ reply: shout, ...engine }, { size: 1 });
  await pool.load();
  const options: BatchTranslateOptions = { task: 'page', items, to: 'fr' };
  const batch = new BatchTranslateController(pool, options, { cache, modelId: 'm1' });
  const history: BatchTranslateState[] = [];
  const stopHistory = batch.subscribe(() => history.push(batch.getSnapshot()));
  return { pool, createEngine, batch, options, cache, history, stopHistory };
}

describe('BatchTranslateController', () => {
  it('does nothing until its options are applied, then runs every item as one normal, preemptible task', async () => {
    const { pool, batch, options, createEngine } = await setup(['hello there', 'good night']);
    expect(engineCalls(createEngine)).toHaveLength(0);
    batch.setOptions(options);
    expect(pool.getSnapshot().jobs.map((j) => [j.task, j.priority, j.preemptible])).toEqual([
      ['page', 'normal', true],
      ['page', 'normal', true],
    ]);
    expect(batch.getSnapshot().status).toBe('streaming');
    await vi.runAllTimersAsync();
    expect(batch.getSnapshot()).toEqual({
      results: [
        { source: 'hello there', text: 'HELLO THERE', status: 'done', error: null },
        { source: 'good night', text: 'GOOD NIGHT', status: 'done', error: null },
      ],
      progress: { done: 2, total: 2 },
      status: 'done',
    });
  });

  it('resubmits a preempted item at once and never shows its partial text as done', async () => {
    const { pool, batch, options, createEngine, history } = await setup(['one two three four five', 'six seven'], { tokenMs: 20 });
    batch.setOptions(options);
    await vi.advanceTimersByTimeAsync(50); // the first item is half way
    const ghost = pool.submit({ priority: 'interactive', session: 'ghost', params: { messages: [{ role: 'user', content: 'hi' }] } });
    await vi.runAllTimersAsync();
    expect((await ghost).status).toBe('done');
    const preempted = pool.getSnapshot().recent.filter((r) => r.status === 'preempted');
    expect(preempted).toHaveLength(1);
    expect(batch.getSnapshot().results.map((r) => [r.text, r.status])).toEqual([
      ['ONE TWO THREE FOUR FIVE', 'done'],
      ['SIX SEVEN', 'done'],
    ]);
    // The preempted item ran twice; no partial text was ever shown as done.
    expect(engineCalls(createEngine).filter((c) => lastContent(c.request) === 'one two three four five')).toHaveLength(2);
    const shownDone = history.flatMap((state) => state.results.filter((r) => r.status === 'done'));
    expect(shownDone.filter((r) => r.text !== r.source.toUpperCase())).toEqual([]);
    expect(history.some((s) => s.results[0]?.status === 'streaming')).toBe(true);
  });

  it('serves cached items without an engine call, and one call for a string repeated in the batch', async () => {
    const cache = mapCache();
    cache.write(inklingKeys.translation('m1', undefined, 'fr', 'cached'), 'EN CACHE');
    const { batch, options, createEngine } = await setup(['cached', 'fresh', 'fresh'], {}, cache);
    batch.setOptions(options);
    expect(batch.getSnapshot().results[0]).toMatchObject({ status: 'done', text: 'EN CACHE' });
    await vi.runAllTimersAsync();
    expect(engineCalls(createEngine)).toHaveLength(1);
    expect(batch.getSnapshot().results.map((r) => r.text)).toEqual(['EN CACHE', 'FRESH', 'FRESH']);
    expect(cache.read(inklingKeys.translation('m1', undefined, 'fr', 'fresh'))).toBe('FRESH');
  });

  it('keys the cache by model and languages', async () => {
    const cache = mapCache();
    cache.write(inklingKeys.translation('m1', undefined, 'de', 'word'), 'WORT');
    cache.write(inklingKeys.translation('m2', undefined, 'fr', 'word'), 'MOT (m2)');
    const { batch, options, createEngine } = await setup(['word'], {}, cache);
    batch.setOptions(options);
    await vi.runAllTimersAsync();
    expect(engineCalls(createEngine)).toHaveLength(1);
    expect(batch.getSnapshot().results[0]?.text).toBe('WORD');
  });

  it('reports a failing item as an error without stopping the others; retry() runs it again', async () => {
    const { batch, options, createEngine } = await setup(['a', 'b']);
    createEngine.engines[0]!.failNext(new Error('bad input'));
    batch.setOptions(options);
    await vi.runAllTimersAsync();
    const [first, second] = batch.getSnapshot().results;
    expect(first).toMatchObject({ status: 'error', text: '' });
    expect(first?.error?.name).toBe('EngineError');
    expect(second).toMatchObject({ status: 'done', text: 'B' });
    expect(batch.getSnapshot()).toMatchObject({ status: 'error', progress: { done: 1, total: 2 } });
    batch.retry();
    await vi.runAllTimersAsync();
    expect(batch.getSnapshot()).toMatchObject({ status: 'done', progress: { done: 2, total: 2 } });
  });

  it('cancel() stops what is left; start() runs it again', async () => {
    const { pool, batch, options } = await setup(['a b c d', 'e f g h', 'i j'], { tokenMs: 20 });
    batch.setOptions(options);
    await vi.advanceTimersByTimeAsync(30);
    batch.cancel();
    expect(batch.getSnapshot().status).toBe('cancelled');
    expect(batch.getSnapshot().results.map((r) => r.status)).toEqual(['cancelled', 'cancelled', 'cancelled']);
    await vi.runAllTimersAsync();
    expect(pool.getSnapshot()).toMatchObject({ running: 0, queued: 0 });
    batch.start();
    await vi.runAllTimersAsync();
    expect(batch.getSnapshot()).toMatchObject({ status: 'done', progress: { done: 3, total: 3 } });
  });

  it('waits for start() when not enabled', async () => {
    const { batch, options, createEngine } = await setup(['x']);
    batch.setOptions({ ...options, enabled: false });
    await vi.runAllTimersAsync();
    expect(batch.getSnapshot()).toMatchObject({ status: 'idle', results: [{ status: 'queued' }] });
    expect(engineCalls(createEngine)).toHaveLength(0);
    batch.start();
    await vi.runAllTimersAsync();
    expect(batch.getSnapshot().status).toBe('done');
  });

  it('keeps work on items that stay when the list changes, and cancels the ones that go', async () => {
    const { pool, batch, options, createEngine } = await setup(['keep me', 'drop me', 'later'], { tokenMs: 20 });
    batch.setOptions(options);
    await vi.advanceTimersByTimeAsync(10);
    batch.setOptions({ ...options, items: ['keep me', 'new one'] });
    await vi.runAllTimersAsync();
    expect(batch.getSnapshot().results.map((r) => r.text)).toEqual(['KEEP ME', 'NEW ONE']);
    expect(engineCalls(createEngine).map((c) => lastContent(c.request))).toEqual(['keep me', 'new one']);
    expect(pool.getSnapshot().recent.filter((r) => r.status === 'cancelled')).toHaveLength(2);
  });

  it('losing its last listener cancels the jobs in flight; the next listener resumes them', async () => {
    const { pool, batch, options, stopHistory } = await setup(['a b c', 'd e f'], { tokenMs: 20 });
    batch.setOptions(options);
    await vi.advanceTimersByTimeAsync(10);
    stopHistory();
    await vi.runAllTimersAsync();
    expect(pool.getSnapshot()).toMatchObject({ running: 0, queued: 0 });
    batch.subscribe(() => {});
    await vi.runAllTimersAsync();
    expect(batch.getSnapshot().status).toBe('done');
  });

  it('finishes blank and whitespace-only items at once with an empty translation, never asking the engine or caching a reply', async () => {
    const cache = mapCache();
    const items = ['', '   ', '\n\t ', 'hello'];
    const { batch, options, createEngine } = await setup(items, { tokenMs: 20 }, cache);
    batch.setOptions(options);
    // Before any engine work: the blanks are already done.
    expect(
      batch
        .getSnapshot()
        .results.slice(0, 3)
        .map((r) => [r.text, r.status]),
    ).toEqual([
      ['', 'done'],
      ['', 'done'],
      ['', 'done'],
    ]);
    await vi.runAllTimersAsync();
    expect(engineCalls(createEngine).map((c) => lastContent(c.request))).toEqual(['hello']);
    expect(batch.getSnapshot()).toMatchObject({ status: 'done', progress: { done: 4, total: 4 } });
    expect(batch.getSnapshot().results.map((r) => r.text)).toEqual(['', '', '', 'HELLO']);
    for (const blank of items.slice(0, 3)) expect(cache.read(inklingKeys.translation('m1', undefined, 'fr', blank))).toBeUndefined();
    expect(cache.size).toBe(1);
    // retry() and start() leave them alone too.
    batch.start();
    batch.retry();
    await vi.runAllTimersAsync();
    expect(engineCalls(createEngine)).toHaveLength(1);
  });

  it('tells listeners of item progress at most once a frame, and of the batch starting and ending at once', async () => {
    const { pool } = fakePool({ reply: shout, tokenMs: 10 }, { size: 1 });
    await pool.load();
    const frames = manualFrames();
    const items = Array.from({ length: 30 }, (_, i) => `item number ${i} of the list`);
    const options: BatchTranslateOptions = { task: 'page', items, to: 'fr' };
    const batch = new BatchTranslateController(pool, options, { scheduleFrame: frames.scheduleFrame });
    let heard = 0;
    batch.subscribe(() => (heard += 1));
    batch.setOptions(options);
    await flushMicrotasks();
    expect([heard, batch.getSnapshot().status]).toEqual([1, 'streaming']);
    // Items finish and stream, but no frame comes: nobody is told.
    await vi.advanceTimersByTimeAsync(150);
    expect(heard).toBe(1);
    const { done } = batch.getSnapshot().progress;
    expect(done).toBeGreaterThan(2);
    expect(done).toBeLessThan(30);
    frames.tick();
    expect(heard).toBe(2);
    expect(frames.pending).toBe(0);
    // The last item ends the batch: told at once, without waiting for a frame.
    await vi.advanceTimersByTimeAsync(5_000);
    expect(batch.getSnapshot()).toMatchObject({ status: 'done', progress: { done: 30, total: 30 } });
    expect(heard).toBe(3);
    expect(frames.pending).toBe(0); // the progress before it went out with it
  });

  it('keeps every unchanged result the same object and counts progress right with repeated strings', async () => {
    const { batch, options } = await setup(['a b', 'c d', 'a b', 'e f']);
    batch.setOptions(options);
    const first = batch.getSnapshot().results;
    await vi.advanceTimersByTimeAsync(0);
    await vi.runAllTimersAsync();
    const last = batch.getSnapshot();
    expect(last.progress).toEqual({ done: 4, total: 4 });
    expect(last.results[0]).toBe(last.results[2]);
    expect(first).not.toBe(last.results);
    batch.setOptions({ ...options, items: ['a b', 'c d', 'a b', 'e f', 'new'] });
    const grown = batch.getSnapshot().results;
    expect(grown.slice(0, 4).every((r, i) => r === last.results[i])).toBe(true);
  });

  it('submits translation jobs carrying the text and languages; a buildParams of your own makes them chats', async () => {
    const specs: JobSpec[] = [];
    const pool: Pool = {
      submit: async (spec) => {
        specs.push(spec);
        return { ...base, status: 'done', text: 'x' };
      },
      cancel: () => 0,
      subscribe: () => () => {},
      getSnapshot: () => {
        throw new Error('not read');
      },
      load: async () => 1,
      unload: async () => {},
      configure: () => 0,
    };
    const native = { task: 'page', items: ['hello'], to: 'fr', from: 'en' };
    new BatchTranslateController(pool, native).setOptions(native);
    const custom = {
      task: 'mine',
      items: ['night'],
      to: 'fr',
      buildParams: ({ text }: { text: string }) => ({ messages: [{ role: 'user' as const, content: `say ${text}` }] }),
    };
    new BatchTranslateController(pool, custom).setOptions(custom);
    await flushMicrotasks();
    expect(specs.map(({ kind, task, params }) => ({ kind, task, params }))).toEqual([
      { kind: 'translation', task: 'page', params: { text: 'hello', to: 'fr', from: 'en' } },
      { kind: undefined, task: 'mine', params: { messages: [{ role: 'user', content: 'say night' }] } },
    ]);
  });

  it('resubmits an item whose error is retryable, twice in a row at most', async () => {
    // A pool that answers from a script: two passing failures then a translation; three for the other item.
    const script: Record<string, Array<() => JobResult>> = {
      hello: [() => failed(busy()), () => failed(busy()), () => ({ ...base, status: 'done', text: 'bonjour' })],
      night: [() => failed(busy()), () => failed(busy()), () => failed(busy()), () => ({ ...base, status: 'done', text: 'nuit' })],
    };
    const asked: string[] = [];
    const pool: Pool = {
      submit: async (spec) => {
        const text = spec.kind === 'translation' ? spec.params.text : lastContent(spec.params);
        const source = text.includes('hello') ? 'hello' : 'night';
        asked.push(source);
        return script[source]!.shift()!();
      },
      cancel: () => 0,
      subscribe: () => () => {},
      getSnapshot: () => {
        throw new Error('not read');
      },
      load: async () => 1,
      unload: async () => {},
      configure: () => 0,
    };
    const batch = new BatchTranslateController(pool, { task: 'page', items: ['hello', 'night'], to: 'fr' });
    batch.setOptions({ task: 'page', items: ['hello', 'night'], to: 'fr' });
    for (let i = 0; i < 10; i += 1) await flushMicrotasks();
    expect(asked.filter((s) => s === 'hello')).toHaveLength(3);
    expect(asked.filter((s) => s === 'night')).toHaveLength(3);
    const [hello, night] = batch.getSnapshot().results;
    expect(hello).toMatchObject({ status: 'done', text: 'bonjour' });
    expect(night).toMatchObject({ status: 'error', error: { message: 'The server is busy.' } });
  });

  it('while it retries, an item is queued with the failure it retries after (not plain "queued")', async () => {
    let calls = 0;
    const pool = {
      // The first answer is a passing failure; the retry then waits (a server that does not answer yet).
      submit: async () => (calls++ === 0 ? failed(busy()) : new Promise<JobResult>(() => {})),
      cancel: () => 0,
      subscribe: () => () => {},
      getSnapshot: () => {
        throw new Error('not read');
      },
      load: async () => 1,
      unload: async () => {},
      configure: () => 0,
    } as Pool;
    const batch = new BatchTranslateController(pool, { task: 'page', items: ['hello'], to: 'fr' });
    batch.setOptions({ task: 'page', items: ['hello'], to: 'fr' });
    for (let i = 0; i < 10; i += 1) await flushMicrotasks();
    expect(calls).toBe(2);
    expect(batch.getSnapshot().results[0]).toMatchObject({ status: 'queued', error: { message: 'The server is busy.' } });
  });
});

const base: JobResult = { id: 'j', status: 'done', text: '', submittedAt: 0, finishedAt: 0 };
function busy(): InklingError {
  return Object.assign(new InklingError('The server is busy.'), { retryable: true });
}
function failed(error: InklingError): JobResult {
  return { ...base, status: 'error', error };
}
