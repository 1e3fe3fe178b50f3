// @vitest-environment node
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import type { StreamingChatCompletionRequest } from '@inkling/scheduler';
import { type GhostTaken, adaptiveLength, suggestionLength } from '../../../src/ghost/core/adaptiveLength.js';
import { GhostTextController, type GhostTextOptions } from '../../../src/ghost/core/ghostTextController.js';
import { engineCalls, fakePool } from '../../core/helpers.js';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

const BOUNDS = { minTokens: 8, maxTokens: 48 };
const times = (n: number, how: GhostTaken): GhostTaken[] => Array.from({ length: n }, () => how);

it.each([
  // [case, taken (oldest first), app's maxTokens, tokens]
  ['nothing taken yet: the app’s maxTokens', [], 24, 24],
  ['three taken: still the app’s', times(3, 'all'), 24, 24],
  ['the app’s maxTokens above the bounds: the bound', [], 100, 48],
  ['the app’s maxTokens below the bounds: the bound', [], 2, 8],
  ['all taken whole: the longest', times(4, 'all'), 24, 48],
  ['all taken a word at a time: the shortest', times(4, 'word'), 24, 8],
  ['half and half: the middle', [...times(2, 'all'), ...times(2, 'word')], 24, 28],
  ['three quarters whole', ['all', 'word', 'all', 'all'], 24, 38],
  ['one in five whole rounds to a quarter', ['all', ...times(4, 'word')], 24, 18],
  ['only the last 16 count', [...times(16, 'word'), ...times(16, 'all')], 24, 48],
] as const)('suggestionLength: %s', (_case, taken, fallback, expected) => {
  expect(suggestionLength(taken, BOUNDS, fallback)).toBe(expected);
});

it('adaptiveLength: bounds that are not whole numbers of tokens, or min above max, are a typed error', () => {
  for (const bad of [
    { minTokens: 0, maxTokens: 10 },
    { minTokens: 1.5, maxTokens: 10 },
    { minTokens: 4, maxTokens: Number.NaN },
    { minTokens: 40, maxTokens: 10 },
  ]) {
    expect(() => adaptiveLength(bad)).toThrow(/adaptiveLength\(\)/);
  }
  expect(() => new GhostTextController(fakePool().pool, { session: 's', text: '', adaptLength: BOUNDS as never })).toThrow(
    /made by adaptiveLength/,
  );
});

/** Types a word, waits for its suggestion, and takes it whole or by its first word; the `max_tokens` each request asked for. */
async function write(how: GhostTaken, extra: Partial<GhostTextOptions> = {}) {
  const { pool, createEngine } = fakePool({ reply: () => ' lorem ipsum dolor', tokenMs: 5 }, { size: 1 });
  await pool.load();
  const options = { session: 's', speculate: false, ...extra };
  const ghost = new GhostTextController(pool, { ...options, text: '' });
  const stop = ghost.subscribe(() => {});
  let text = '';
  for (let i = 0; i < 6; i += 1) {
    text += ` w${i}`;
    ghost.setOptions({ ...options, text });
    await vi.advanceTimersByTimeAsync(1000);
    text = (how === 'all' ? ghost.accept() : ghost.acceptWord()).text;
    ghost.setOptions({ ...options, text });
    await vi.advanceTimersByTimeAsync(1000);
  }
  stop();
  ghost.dispose();
  return engineCalls(createEngine).map((call) => (call.request as StreamingChatCompletionRequest).max_tokens);
}

it('adaptLength: whole accepts lengthen the request, word accepts shorten it; without it the app’s maxTokens stays', async () => {
  const adaptLength = adaptiveLength(BOUNDS);
  const whole = await write('all', { adaptLength, maxTokens: 16 });
  expect(whole.slice(0, 4)).toEqual([16, 16, 16, 16]); // the app's, until four suggestions were taken
  expect(whole.at(-1)).toBe(48);
  const byWord = await write('word', { adaptLength, maxTokens: 16 });
  expect(byWord.at(-1)).toBe(8);
  expect(new Set(await write('all', { maxTokens: 16 }))).toEqual(new Set([16]));
});
