// @vitest-environment node
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { adaptiveDebounce } from '../../../src/ghost/core/adaptiveDebounce.js';
import { DebounceTuner } from '../../../src/ghost/core/debounceTuner.js';
import { GhostTextController, type GhostTextOptions } from '../../../src/ghost/core/ghostTextController.js';
import { fakePool } from '../../core/helpers.js';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

const BOUNDS = { minMs: 60, maxMs: 600 };

const QUICK = [40, 60, 80, 50, 70, 45, 65, 75]; // within a word, max 80
const SLOW = [150, 200, 240, 180, 220, 160, 230, 190]; // max 240: slower than the fallback
it.each([
  // [case, gaps, first tokens, debounce]
  ['nothing measured: the fallback', [], [], 120],
  ['fewer than 8 gaps say too little: the fallback', [40, 60, 80], [], 120],
  ['quicker than the fallback, no first token yet: just past the longest gap (x1.1)', QUICK, [], 88],
  ['a pause (2000, over 1 s) is left out', [...QUICK, 2000], [], 88],
  ['a gap over three times the median is a pause between words', [...QUICK, 400], [], 88],
  ['quicker than the fallback: the rhythm, whatever the engine', QUICK, [800], 88],
  ['slower than the fallback, no first token yet: the fallback', SLOW, [], 120],
  ['slower than the fallback, slow engine: wait out the rhythm', SLOW, [400], 264],
  ['slower than the fallback, quick engine: an early request is past its prefill by the next key', SLOW, [150], 120],
  ['first tokens that queued behind another request are not prefill', SLOW, [150, ...Array<number>(9).fill(900)], 120],
  ['slower than the engine: a request sent early is over before the next key', SLOW.map((gap) => gap + 300), [150], 120],
  ['instant engine: an early request costs nothing', SLOW, [0], 120],
  ['the bound above', Array<number>(8).fill(700), [2000], 600],
] as const)('DebounceTuner: %s', (_case, gaps, firstTokens, expected) => {
  const tuner = new DebounceTuner();
  for (const gap of gaps) tuner.keyGap(gap);
  for (const ms of firstTokens) tuner.firstToken(ms);
  expect(tuner.debounceMs(BOUNDS, 120)).toBe(expected);
});

it('DebounceTuner: the bounds hold the fallback and the rhythm', () => {
  const tuner = new DebounceTuner();
  expect(tuner.debounceMs(BOUNDS, 1000)).toBe(600);
  expect(tuner.debounceMs(BOUNDS, 10)).toBe(60);
  for (const gap of QUICK) tuner.keyGap(gap);
  expect(tuner.debounceMs({ minMs: 0, maxMs: 50 }, 120)).toBe(50);
});

async function typeSlowly(extra: Partial<GhostTextOptions>, prefillMs = 250) {
  const { pool } = fakePool({ reply: () => ' x', tokenMs: 5, prefillMs }, { size: 1 });
  await pool.load();
  const options = { session: 's', speculate: false, ...extra };
  const ghost = new GhostTextController(pool, { ...options, text: '' }, { now: () => Date.now() });
  let text = '';
  for (const word of ['one', 'two', 'three', 'four', 'five']) {
    for (const char of ` ${word}`) {
      text += char;
      ghost.setOptions({ ...options, text });
      await vi.advanceTimersByTimeAsync(180); // a slow typist: 180 ms between keys
    }
    await vi.advanceTimersByTimeAsync(800); // a pause after each word
  }
  ghost.dispose();
  return ghost.stats.requests;
}

it('adaptDebounce: a typist quicker than the engine gets no request between the keys of a word, only at the pauses', async () => {
  const fixed = await typeSlowly({}, 400);
  const adapted = await typeSlowly({ adaptDebounce: adaptiveDebounce(BOUNDS) }, 400);
  expect(fixed).toBeGreaterThanOrEqual(10); // 120 ms runs out between two keys again and again
  expect(adapted).toBeLessThanOrEqual(9); // the first 8 gaps at the fallback, then one per word
});

it('adaptDebounce: a typist slower than the engine keeps the fallback (an early request is over before the next key)', async () => {
  const fixed = await typeSlowly({}, 20);
  const adapted = await typeSlowly({ adaptDebounce: adaptiveDebounce(BOUNDS) }, 20);
  expect(fixed).toBeGreaterThanOrEqual(15);
  expect(adapted).toBe(fixed);
});

it('adaptiveDebounce: bounds that are not durations, or min above max, are a typed error', () => {
  for (const bad of [
    { minMs: -1, maxMs: 10 },
    { minMs: 0, maxMs: Number.NaN },
    { minMs: 500, maxMs: 100 },
  ]) {
    expect(() => adaptiveDebounce(bad)).toThrow(/adaptiveDebounce\(\)/);
  }
});
