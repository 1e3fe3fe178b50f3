// @vitest-environment node
import type { StreamingChatCompletionRequest } from '@inkling/scheduler';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { GhostTextController, type GhostTextOptions } from '../../../src/ghost/core/ghostTextController.js';
import { ghostEvents } from '../../../src/ghost/core/ghostTextEvents.js';
import type { GhostTextEvent } from '../../../src/ghost/core/ghostTextEvent.js';
import { pauseAfterRejections } from '../../../src/ghost/core/pauseAfterRejections.js';
import { fakePool } from '../../core/helpers.js';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

function beforeOf(request: StreamingChatCompletionRequest): string {
  return /<before_cursor>([\s\S]*?)<\/before_cursor>/.exec(String(request.messages.at(-1)?.content))?.[1] ?? '';
}

async function setup(
  reply: (before: string) => string,
  engine: { tokenMs?: number; prefillMs?: number } = {},
  defaults: Partial<GhostTextOptions> = {},
  withText = false,
) {
  const { pool, createEngine } = fakePool({ reply: (request) => reply(beforeOf(request)), ...engine }, { size: 1 });
  await pool.load();
  const events: GhostTextEvent[] = [];
  const options = {
    session: 'notes',
    speculate: false,
    events: ghostEvents((event) => events.push(event), { text: withText }),
    ...defaults,
  };
  const ghost = new GhostTextController(pool, { ...options, text: '' }, { now: () => Date.now() });
  const type = (text: string, caret?: number, extra: Partial<GhostTextOptions> = {}) =>
    ghost.setOptions({ ...options, ...extra, text, caret });
  const tab = () => {
    const accepted = ghost.accept();
    type(accepted.text, accepted.caret);
  };
  /** The events since the last call, without the labels every one carries. */
  const drain = () => events.splice(0).map(({ session: _session, model: _model, promptBuilder: _builder, ...event }) => event);
  return { ghost, type, tab, drain, createEngine, events };
}

it('says each suggestion was shown (source, first glyph and whole times) and accepted, with no text', async () => {
  const { ghost, type, tab, events } = await setup(() => ' wide world', { tokenMs: 10 });
  type('Hello');
  await vi.runAllTimersAsync();
  const [shown] = events;
  expect(shown).toMatchObject({
    type: 'shown',
    source: 'engine',
    characters: 11,
    session: 'notes',
    model: '',
    promptBuilder: 'defaultGhostParams',
  });
  if (shown?.type !== 'shown') throw new Error('no shown event');
  expect(shown.firstGlyphMs).toBeGreaterThanOrEqual(120); // the debounce, then the first token
  expect(shown.wholeMs).toBeGreaterThan(shown.firstGlyphMs);
  tab();
  expect(events.map((event) => event.type)).toEqual(['shown', 'accepted']);
  expect(events[1]).toMatchObject({ type: 'accepted', how: 'all', characters: 11, suggestion: shown.suggestion });
  expect(events.some((event) => 'text' in event)).toBe(false);
  ghost.dispose();
});

it('counts typing through, then a rejection by typing over, by Escape and by moving the caret away', async () => {
  const { ghost, type, drain } = await setup(() => ' quick fox');
  type('The');
  await vi.runAllTimersAsync();
  drain();
  type('The qu');
  expect(drain()).toEqual([{ type: 'typedThrough', suggestion: 1, characters: 3 }]);
  type('The qux');
  expect(drain()).toEqual([{ type: 'rejected', suggestion: 1, reason: 'typedOver', characters: 7 }]);
  await vi.runAllTimersAsync();
  expect(drain()).toMatchObject([{ type: 'shown', suggestion: 2 }]);
  ghost.dismiss();
  expect(drain()).toEqual([{ type: 'rejected', suggestion: 2, reason: 'escape', characters: 10 }]);
  type('The qux!');
  await vi.runAllTimersAsync();
  drain();
  type('The qux!', 3);
  expect(drain()).toEqual([{ type: 'rejected', suggestion: 3, reason: 'caretMoved', characters: 10 }]);
  ghost.dispose();
});

it('says when a suggestion comes from the cache or from the speculation, and when a request was superseded or failed', async () => {
  const { ghost, type, tab, drain, createEngine } = await setup(
    (before) => ` w${before.length} x`,
    { prefillMs: 50, tokenMs: 30 },
    { speculate: true },
  );
  type('Hello');
  await vi.advanceTimersByTimeAsync(130); // asked, nothing shown yet
  type('Hell'); // Backspace: its reply cannot fit
  expect(drain()).toEqual([{ type: 'superseded', suggestion: 1 }]);
  type('Hello!');
  await vi.advanceTimersByTimeAsync(260); // shown; the speculation for 'Hello! w6 x' is on its way
  expect(drain()).toMatchObject([{ type: 'shown', source: 'engine', suggestion: 2 }]);
  tab(); // before the speculation is done: it becomes the current request
  await vi.runAllTimersAsync();
  expect(drain()).toMatchObject([
    { type: 'accepted', how: 'all', suggestion: 2 },
    { type: 'shown', source: 'speculation', suggestion: 3 },
  ]);
  type('Hello! w6 x!');
  type('Hello! w6 x'); // Backspace to the answered text
  expect(drain()).toMatchObject([
    { type: 'rejected', reason: 'typedOver', suggestion: 3 },
    { type: 'shown', source: 'cache', firstGlyphMs: 0, wholeMs: 0 },
  ]);
  await vi.runAllTimersAsync();
  drain();
  createEngine.engines[0]!.failNext(new Error('tokenizer exploded'));
  type('Hi');
  await vi.runAllTimersAsync();
  expect(drain()).toMatchObject([{ type: 'rejected' }, { type: 'failed', error: { name: 'EngineError' } }]);
  ghost.dispose();
});

it('a suggestion typed over while it streams is shown once, with no whole time, then rejected', async () => {
  const { ghost, type, drain } = await setup(() => ' one two three four', { prefillMs: 20, tokenMs: 100 });
  type('Count');
  await vi.advanceTimersByTimeAsync(260); // the debounce, the prefill and a token or two: streaming
  expect(ghost.getSnapshot().status).toBe('streaming');
  type('Countx');
  const events = drain();
  expect(events).toMatchObject([
    { type: 'shown', source: 'engine', suggestion: 1, wholeMs: null },
    { type: 'rejected', reason: 'typedOver', suggestion: 1 },
  ]);
  const [shown] = events;
  if (shown?.type !== 'shown') throw new Error('no shown event');
  expect(shown.firstGlyphMs).toBeGreaterThanOrEqual(140); // the debounce and the prefill
  expect(shown.characters).toBeLessThan(' one two three four'.length); // what it had offered by then
  ghost.dispose();
});

it('reports word accepts one by one, and the text only with text: true', async () => {
  const { ghost, type, drain } = await setup(() => ' brown fox', {}, {}, true);
  type('The');
  await vi.runAllTimersAsync();
  expect(drain()).toMatchObject([{ type: 'shown', text: ' brown fox', characters: 10 }]);
  const word = ghost.acceptWord();
  type(word.text, word.caret);
  expect(drain()).toEqual([{ type: 'accepted', suggestion: 1, how: 'word', characters: 6, text: ' brown' }]);
  const rest = ghost.accept();
  type(rest.text, rest.caret);
  expect(drain()).toEqual([{ type: 'accepted', suggestion: 1, how: 'all', characters: 4, text: ' fox' }]);
  ghost.dispose();
});

it('pause: stops asking the engine after N suggestions in a row were turned down, until resumeAfterMs has passed', async () => {
  const { ghost, type } = await setup(
    () => ' xyz',
    {},
    { events: undefined, pause: pauseAfterRejections({ afterRejections: 2, resumeAfterMs: 1_000 }) },
  );
  type('a b');
  await vi.runAllTimersAsync();
  expect(ghost.getSnapshot().suggestion).toBe(' xyz');
  type('a bq'); // turned down: 1
  await vi.runAllTimersAsync();
  expect(ghost.getSnapshot().suggestion).toBe(' xyz');
  type('a bqq'); // turned down: 2, paused
  await vi.runAllTimersAsync();
  expect(ghost.getSnapshot()).toMatchObject({ suggestion: '', status: 'idle' });
  expect(ghost.stats.requests).toBe(2);
  type('a bqqq');
  await vi.advanceTimersByTimeAsync(500);
  expect(ghost.stats.requests).toBe(2);
  await vi.advanceTimersByTimeAsync(500);
  type('a bqqqq'); // the pause is over
  await vi.runAllTimersAsync();
  expect(ghost.stats.requests).toBe(3);
  expect(ghost.getSnapshot().suggestion).toBe(' xyz');
  ghost.dispose();
});

it('pause: an accept starts the count again, and a bad pause is a typed error', async () => {
  const { ghost, type, tab } = await setup(() => ' xyz', {}, { pause: pauseAfterRejections({ afterRejections: 2 }) });
  type('a b');
  await vi.runAllTimersAsync();
  type('a bq'); // 1
  await vi.runAllTimersAsync();
  tab(); // accepted: 0
  await vi.runAllTimersAsync();
  type('a bq xyzq'); // 1
  await vi.runAllTimersAsync();
  expect(ghost.getSnapshot().suggestion).toBe(' xyz');
  for (const bad of [0, 1.5, Number.NaN]) {
    expect(() => pauseAfterRejections({ afterRejections: bad })).toThrow(/"afterRejections" must be/);
  }
  expect(() => pauseAfterRejections({ afterRejections: 1, resumeAfterMs: -1 })).toThrow(/"resumeAfterMs"/);
  // A plain object where a factory's value belongs (plain JavaScript): named, and the controller left as it was.
  const plain = { afterRejections: 1 } as unknown as GhostTextOptions['pause'];
  expect(() => type('a', undefined, { pause: plain })).toThrow(/"pause" must be made by pauseAfterRejections/);
  expect(ghost.getSnapshot().suggestion).toBe(' xyz');
  ghost.dispose();
});

it('pause: an accept of a suggestion the cache still shows ends the pause at once', async () => {
  const { ghost, type, tab } = await setup(
    (before) => ` w${before.length}`,
    {},
    { events: undefined, pause: pauseAfterRejections({ afterRejections: 2, resumeAfterMs: Number.POSITIVE_INFINITY }) },
  );
  type('a b');
  await vi.runAllTimersAsync(); // ' w3' for 'a b', kept in the cache
  type('a bq'); // turned down: 1
  await vi.runAllTimersAsync();
  type('a bqq'); // turned down: 2, paused
  await vi.runAllTimersAsync();
  expect(ghost.stats.requests).toBe(2);
  expect(ghost.getSnapshot().suggestion).toBe('');
  type('a b'); // back where the cache has a suggestion: shown while paused
  expect(ghost.getSnapshot().suggestion).toBe(' w3');
  tab(); // accepted: the pause is over
  await vi.runAllTimersAsync();
  expect(ghost.stats.requests).toBe(3);
  expect(ghost.getSnapshot().suggestion).toBe(' w6');
  ghost.dispose();
});

it('a new ghostEvents value on every setOptions (an inline one, each render) keeps one tracking, and the latest listener hears', async () => {
  const { pool } = fakePool({ reply: () => ' brown fox' }, { size: 1 });
  await pool.load();
  const first: string[] = [];
  const latest: string[] = [];
  const options = { session: 'notes', speculate: false };
  const ghost = new GhostTextController(pool, { ...options, text: '', events: ghostEvents((event) => first.push(event.type)) });
  ghost.setOptions({ ...options, text: 'The', events: ghostEvents((event) => first.push(event.type)) });
  await vi.runAllTimersAsync();
  const word = ghost.acceptWord();
  ghost.setOptions({ ...options, ...word, events: ghostEvents((event) => latest.push(event.type)) });
  const rest = ghost.accept();
  ghost.setOptions({ ...options, ...rest, events: ghostEvents((event) => latest.push(event.type)) });
  expect(first).toEqual(['shown', 'accepted']);
  expect(latest).toEqual(['accepted']); // the same suggestion: no second `shown`
  ghost.dispose();
});
