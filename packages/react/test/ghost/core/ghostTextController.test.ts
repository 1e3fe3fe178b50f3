// @vitest-environment node
import type { PoolTimers, StreamingChatCompletionRequest } from '@inkling/scheduler';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { GhostTextController, type GhostTextOptions } from '../../../src/ghost/core/ghostTextController.js';
import { engineCalls, fakePool } from '../../core/helpers.js';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

/** The text before the caret that a default ghost request was built from. */
function beforeOf(request: StreamingChatCompletionRequest): string {
  const user = request.messages.at(-1)?.content;
  return /<before_cursor>([\s\S]*?)<\/before_cursor>/.exec(String(user))?.[1] ?? '';
}

/** A reply that names the length of the text it answers. */
const lengthReply = (before: string) => `${/\s$/.test(before) ? '' : ' '}<${before.length}> and more`;

/** Timers that count what is pending, for the controller's own debounce. */
function countingTimers() {
  const pending = new Set<unknown>();
  const timers: PoolTimers = {
    setTimeout: (callback, ms) => {
      const id = setTimeout(() => {
        pending.delete(id);
        callback();
      }, ms);
      pending.add(id);
      return id;
    },
    clearTimeout: (id) => {
      pending.delete(id);
      clearTimeout(id as ReturnType<typeof setTimeout>);
    },
  };
  return { timers, pending };
}

/**
 * A controller on a one-engine fake pool. Speculation is off unless asked
 * for: these tests count the interactive path's engine calls, which a
 * speculative call would add to (its own tests are in ghostSpeculation.test.ts).
 */
async function setup(
  reply: (before: string) => string,
  engine: { prefillMs?: number; tokenMs?: number } = {},
  defaults: Partial<GhostTextOptions> = { speculate: false },
) {
  const { pool, createEngine } = fakePool({ reply: (request) => reply(beforeOf(request)), ...engine }, { size: 1 });
  await pool.load();
  const { timers, pending } = countingTimers();
  const ghost = new GhostTextController(pool, { session: 'editor', text: '', ...defaults }, { timers });
  const type = (text: string, caret?: number, extra: Partial<GhostTextOptions> = {}) =>
    ghost.setOptions({ session: 'editor', text, caret, ...defaults, ...extra });
  return { pool, createEngine, ghost, type, pending };
}

describe('GhostTextController', () => {
  it('waits out the debounce, then shows the suggestion for the text before the caret', async () => {
    const { ghost, type, createEngine } = await setup(() => ' brown fox', { tokenMs: 10 });
    type('The quick');
    expect(ghost.getSnapshot()).toMatchObject({ status: 'queued', suggestion: '' });
    await vi.advanceTimersByTimeAsync(119);
    expect(engineCalls(createEngine)).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(engineCalls(createEngine)).toHaveLength(1);
    await vi.runAllTimersAsync();
    expect(ghost.getSnapshot()).toMatchObject({ status: 'done', suggestion: ' brown fox', error: null });
  });

  it('sends an interactive job in its session, with the text after the caret in the prompt', async () => {
    const { pool, type, createEngine } = await setup(() => ' x', { tokenMs: 10 });
    type('Hello world', 5);
    await vi.runAllTimersAsync();
    expect(pool.getSnapshot().recent.at(-1)).toMatchObject({ session: 'editor', priority: 'interactive', status: 'done' });
    const request = engineCalls(createEngine)[0]?.request as StreamingChatCompletionRequest;
    expect(String(request.messages.at(-1)?.content)).toContain('<after_cursor> world</after_cursor>');
    expect(request.max_tokens).toBe(24);
  });

  it('cancels the request in flight at the next keystroke, before the debounce ends', async () => {
    const { pool, ghost, type } = await setup(() => ' a b c d e f', { prefillMs: 50, tokenMs: 50 });
    type('Hel');
    await vi.advanceTimersByTimeAsync(200); // streaming now
    expect(ghost.getSnapshot().status).toBe('streaming');
    type('Hex');
    expect(ghost.getSnapshot()).toMatchObject({ status: 'queued', suggestion: '' });
    expect(pool.getSnapshot().jobs.every((j) => j.state === 'cancelling')).toBe(true);
    await vi.advanceTimersByTimeAsync(60);
    expect(pool.getSnapshot().recent.at(-1)).toMatchObject({ status: 'cancelled' });
    await vi.runAllTimersAsync();
  });

  it('a key typed while the request prefills: the next request waits the debounce from that key, not from the first token that showed it typed over', async () => {
    const { type, createEngine } = await setup(() => ' x', { prefillMs: 250, tokenMs: 10 });
    type('Hel');
    await vi.advanceTimersByTimeAsync(150); // sent at 120, in its prefill
    expect(engineCalls(createEngine)).toHaveLength(1);
    type('Help'); // nothing streamed yet: it may still fit, so it goes on
    await vi.advanceTimersByTimeAsync(225); // its first token (370) does not fit: 'p' was typed 225 ms ago, over the debounce
    expect(engineCalls(createEngine)).toHaveLength(2);
    expect(beforeOf(engineCalls(createEngine)[1]?.request as StreamingChatCompletionRequest)).toBe('Help');
    await vi.runAllTimersAsync();
  });

  it('records a keystroke’s stale request as superseded, and a disabled one as cancelled', async () => {
    const { pool, type } = await setup(() => ' a b c d e f', { prefillMs: 50, tokenMs: 50 });
    type('Hel');
    await vi.advanceTimersByTimeAsync(200);
    type('Hex');
    await vi.advanceTimersByTimeAsync(60);
    expect(pool.getSnapshot().recent.at(-1)).toMatchObject({ status: 'cancelled', cancelReason: 'supersede' });
    await vi.advanceTimersByTimeAsync(300);
    type('Hex', undefined, { enabled: false });
    await vi.advanceTimersByTimeAsync(60);
    expect(pool.getSnapshot().recent.at(-1)?.cancelReason).not.toBe('supersede');
    await vi.runAllTimersAsync();
  });

  it('under fast typing shows only suggestions made for the text on screen', async () => {
    const { ghost, type, createEngine } = await setup(lengthReply, { prefillMs: 40, tokenMs: 30 });
    let current = '';
    const shown: Array<{ text: string; suggestion: string }> = [];
    ghost.subscribe(() => {
      const { suggestion } = ghost.getSnapshot();
      if (suggestion) shown.push({ text: current, suggestion });
    });
    const sentence = 'Once upon a time';
    for (let i = 1; i <= sentence.length; i += 1) {
      current = sentence.slice(0, i);
      type(current);
      // Some keystrokes come faster than the debounce, some slower than a reply.
      await vi.advanceTimersByTimeAsync(i % 4 === 0 ? 190 : 60);
    }
    await vi.runAllTimersAsync();
    expect(engineCalls(createEngine).length).toBeGreaterThan(1);
    expect(shown.length).toBeGreaterThan(0);
    // Each suggestion shown is (the streamed start of) the reply to the text
    // then on screen, or to an earlier text that later keystrokes typed through.
    const fits = ({ text, suggestion }: { text: string; suggestion: string }) =>
      Array.from({ length: text.length + 1 }, (_, k) => k).some((k) =>
        lengthReply(text.slice(0, k)).startsWith(text.slice(k) + suggestion),
      );
    expect(shown.filter((s) => !fits(s))).toEqual([]);
    expect(ghost.getSnapshot().suggestion).toBe(` <${sentence.length}> and more`);
  });

  it('types through: typing the suggestion keeps the rest without a new request', async () => {
    const { ghost, type, createEngine } = await setup(() => ' quick brown fox', { tokenMs: 10 });
    type('The');
    await vi.runAllTimersAsync();
    expect(ghost.getSnapshot().suggestion).toBe(' quick brown fox');
    type('The q');
    expect(ghost.getSnapshot().suggestion).toBe('uick brown fox');
    type('The qu');
    await vi.advanceTimersByTimeAsync(1000);
    expect(ghost.getSnapshot()).toMatchObject({ suggestion: 'ick brown fox', status: 'done' });
    expect(engineCalls(createEngine)).toHaveLength(1);
    type('The q'); // backspace within the suggestion brings it back
    expect(ghost.getSnapshot().suggestion).toBe('uick brown fox');
    expect(engineCalls(createEngine)).toHaveLength(1);
  });

  it('drops a suggestion that no longer fits at once and asks again', async () => {
    const { ghost, type, createEngine } = await setup((before) => (before.endsWith('x') ? ' ray' : ' quick'), { tokenMs: 10 });
    type('The');
    await vi.runAllTimersAsync();
    type('The x');
    expect(ghost.getSnapshot()).toMatchObject({ suggestion: '', status: 'queued' });
    await vi.runAllTimersAsync();
    expect(ghost.getSnapshot().suggestion).toBe(' ray');
    expect(engineCalls(createEngine)).toHaveLength(2);
  });

  it('types through a suggestion that is still streaming', async () => {
    const { ghost, type, createEngine } = await setup(() => ' one two three four', { prefillMs: 10, tokenMs: 100 });
    type('Count');
    await vi.advanceTimersByTimeAsync(140); // debounce, prefill, first token
    expect(ghost.getSnapshot()).toMatchObject({ suggestion: ' one', status: 'streaming' });
    type('Count one t'); // typed past what has streamed so far
    expect(ghost.getSnapshot().suggestion).toBe('');
    await vi.runAllTimersAsync();
    expect(ghost.getSnapshot()).toMatchObject({ suggestion: 'wo three four', status: 'done' });
    expect(engineCalls(createEngine)).toHaveLength(1);
  });

  it('asks for the next suggestion once the whole one has been typed', async () => {
    const { ghost, type, createEngine } = await setup((before) => (before.endsWith('ran') ? ' away' : ' ran'), { tokenMs: 10 });
    type('She');
    await vi.runAllTimersAsync();
    type('She ran');
    expect(ghost.getSnapshot().suggestion).toBe('');
    await vi.runAllTimersAsync();
    expect(ghost.getSnapshot().suggestion).toBe(' away');
    expect(engineCalls(createEngine)).toHaveLength(2);
  });

  it('asks nothing for blank text or for text it already answered', async () => {
    const { ghost, type, createEngine } = await setup(() => ' x', { tokenMs: 10 });
    type('');
    type('   ');
    await vi.runAllTimersAsync();
    expect(ghost.getSnapshot().status).toBe('idle');
    expect(engineCalls(createEngine)).toHaveLength(0);
    type('Hi');
    await vi.runAllTimersAsync();
    type('Hi');
    type('Hi', 2);
    await vi.runAllTimersAsync();
    expect(engineCalls(createEngine)).toHaveLength(1);
  });

  it('accept() inserts the suggestion at the caret', async () => {
    const { ghost, type } = await setup(() => ' brave new', { tokenMs: 10 });
    type('Hello world!', 5);
    await vi.runAllTimersAsync();
    expect(ghost.accept()).toEqual({ text: 'Hello brave new world!', caret: 15, inserted: ' brave new' });
  });

  it('acceptWord() inserts one word, and the rest stays when the text comes back', async () => {
    const { ghost, type, createEngine } = await setup(() => ' quick, brown fox', { tokenMs: 10 });
    type('The');
    await vi.runAllTimersAsync();
    const once = ghost.acceptWord();
    expect(once).toEqual({ text: 'The quick', caret: 9, inserted: ' quick' });
    type(once.text, once.caret);
    expect(ghost.getSnapshot().suggestion).toBe(', brown fox');
    expect(ghost.acceptWord().text).toBe('The quick, brown');
    expect(engineCalls(createEngine)).toHaveLength(1);
  });

  it('acceptWord() splits Japanese and Chinese into words, not characters or the whole line', async () => {
    const { ghost, type } = await setup((before) => (before.startsWith('今日') ? '良い天気ですね' : '我们去公园散步'), { tokenMs: 10 });
    type('今日は', undefined, { locale: 'ja' });
    await vi.runAllTimersAsync();
    expect(ghost.acceptWord().text).toBe('今日は良い');
    type('今日は良い', undefined, { locale: 'ja' });
    expect(ghost.getSnapshot().suggestion).toBe('天気ですね');
    expect(ghost.acceptWord().text).toBe('今日は良い天気');

    type('今天', undefined, { locale: 'zh' });
    await vi.runAllTimersAsync();
    expect(ghost.acceptWord().text).toBe('今天我们');
  });

  it('dismiss() hides the suggestion and asks nothing until the text changes', async () => {
    const { ghost, type, createEngine, pool } = await setup(() => ' and so on', { prefillMs: 20, tokenMs: 20 });
    type('Etc');
    await vi.advanceTimersByTimeAsync(150);
    ghost.dismiss();
    expect(ghost.getSnapshot()).toMatchObject({ suggestion: '', status: 'idle' });
    type('Etc');
    await vi.runAllTimersAsync();
    expect(engineCalls(createEngine)).toHaveLength(1);
    expect(pool.getSnapshot().recent.at(-1)?.status).toBe('cancelled');
    type('Etc.');
    await vi.runAllTimersAsync();
    expect(engineCalls(createEngine)).toHaveLength(2);
  });

  it('strips what the model repeats of the text around the caret', async () => {
    const replies: Record<string, string> = {
      'The quick brown': 'The quick brown fox jumps',
      'Hello wor': 'world, how are you',
      'I went to the': 'the market and',
      'Dear ': 'Dear Sam,',
    };
    const { ghost, type } = await setup((before) => replies[before] ?? '', { tokenMs: 5 });
    const expected: Record<string, string> = {
      'The quick brown': ' fox jumps',
      'Hello wor': 'ld, how are you',
      'I went to the': ' market and',
      'Dear ': 'Sam,',
    };
    for (const [text, suggestion] of Object.entries(expected)) {
      type(text);
      await vi.runAllTimersAsync();
      expect(ghost.getSnapshot().suggestion).toBe(suggestion);
    }
  });

  it('cuts the suggestion where the model starts repeating the text after the caret', async () => {
    const { ghost, type } = await setup(() => ' small grey cat sat on the mat', { tokenMs: 5 });
    type('The cat sat on the mat', 3);
    await vi.runAllTimersAsync();
    expect(ghost.getSnapshot().suggestion).toBe(' small grey');
  });

  it('holds requests while an IME composition is in progress', async () => {
    const { ghost, type, createEngine } = await setup(() => 'です', { tokenMs: 5 });
    ghost.setComposing(true);
    type('今日は');
    type('今日は晴れ');
    await vi.runAllTimersAsync();
    expect(engineCalls(createEngine)).toHaveLength(0);
    ghost.setComposing(false);
    await vi.runAllTimersAsync();
    expect(engineCalls(createEngine)).toHaveLength(1);
    expect(ghost.getSnapshot().suggestion).toBe('です');
  });

  it("ignores dismiss() during an IME composition: the Escape is the IME's, and the suggestion comes after it", async () => {
    const { ghost, type, createEngine } = await setup(() => 'です', { tokenMs: 5 });
    ghost.setComposing(true);
    type('今日は');
    ghost.dismiss();
    ghost.setComposing(false);
    await vi.runAllTimersAsync();
    expect(engineCalls(createEngine)).toHaveLength(1);
    expect(ghost.getSnapshot().suggestion).toBe('です');
  });

  it('surfaces an engine failure as state', async () => {
    const { ghost, type, createEngine } = await setup(() => ' x', { tokenMs: 5 });
    createEngine.engines[0]!.failNext(new Error('tokenizer exploded'));
    type('Hi');
    await vi.runAllTimersAsync();
    const state = ghost.getSnapshot();
    expect(state.status).toBe('error');
    expect(state.error?.name).toBe('EngineError');
    expect(state.error?.message).toContain('tokenizer exploded');
    type('Hi!');
    await vi.runAllTimersAsync();
    expect(ghost.getSnapshot()).toMatchObject({ status: 'done', error: null });
  });

  it('stops everything when disabled, and leaves no job or timer after dispose', async () => {
    const { pool, ghost, type, pending } = await setup(() => ' a b c d e', { tokenMs: 50 });
    type('Go', undefined, { enabled: false });
    await vi.runAllTimersAsync();
    expect(pool.getSnapshot().recent).toHaveLength(0);
    type('Go');
    expect(pending.size).toBe(1); // the debounce
    type('Go', undefined, { enabled: false });
    expect(pending.size).toBe(0); // cleared by disabling, not by running out
    type('Go');
    await vi.advanceTimersByTimeAsync(180);
    expect(pool.getSnapshot().running).toBe(1);
    type('Go!');
    expect(pending.size).toBe(1);
    ghost.dispose();
    expect(pending.size).toBe(0); // dispose cleared the debounce itself
    expect(ghost.getSnapshot()).toMatchObject({ status: 'idle', suggestion: '' });
    await vi.runAllTimersAsync();
    expect(pool.getSnapshot()).toMatchObject({ running: 0, queued: 0 });
    expect(pool.getSnapshot().recent.at(-1)?.status).toBe('cancelled');
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe('GhostTextController sessions', () => {
  it('drops the request of a session it leaves and asks again in the new one', async () => {
    const { pool } = fakePool({ reply: ' next', prefillMs: 50, tokenMs: 50 }, { size: 1 });
    await pool.load();
    const ghost = new GhostTextController(pool, { session: 'doc-1', text: '', speculate: false });
    ghost.setOptions({ session: 'doc-1', text: 'Hello', speculate: false });
    await vi.advanceTimersByTimeAsync(130);
    ghost.setOptions({ session: 'doc-2', text: 'Hello', speculate: false });
    await vi.runAllTimersAsync();
    expect(pool.getSnapshot().recent.map((r) => [r.session, r.status])).toEqual([
      ['doc-1', 'cancelled'],
      ['doc-2', 'done'],
    ]);
    expect(ghost.getSnapshot().suggestion).toBe(' next');
  });
});
