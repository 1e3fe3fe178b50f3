// @vitest-environment node
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { adaptiveDebounce } from '../../../src/ghost/core/adaptiveDebounce.js';
import { DebounceTuner } from '../../../src/ghost/core/debounceTuner.js';
import { GhostTextController, type GhostTextOptions } from '../../../src/ghost/core/ghostTextController.js';
import { fakePool } from '../../core/helpers.js';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

const BOUNDS = { minMs: 60, maxMs: 600 };

it('DebounceTuner: the fallback until it has measured, then the rhythm or a quarter of the engine, within the bounds', () => {
  const tuner = new DebounceTuner();
  expect(tuner.debounceMs(BOUNDS, 120)).toBe(120);
  expect(tuner.debounceMs(BOUNDS, 1000)).toBe(600);
  for (const gap of [80, 90, 100, 2000]) tuner.keyGap(gap); // 2000: a pause, left out
  expect(tuner.debounceMs(BOUNDS, 120)).toBe(125); // the 75th percentile of 80, 90, 100 (nearest rank: 100), ×1.25
  tuner.firstToken(800);
  expect(tuner.debounceMs(BOUNDS, 120)).toBe(200); // a quarter of a slow engine's first token
  for (let i = 0; i < 40; i += 1) tuner.keyGap(700);
  expect(tuner.debounceMs(BOUNDS, 120)).toBe(600); // the bound
  expect(tuner.debounceMs({ minMs: 0, maxMs: 50 }, 120)).toBe(50);
});

async function typeSlowly(extra: Partial<GhostTextOptions>) {
  const { pool } = fakePool({ reply: () => ' x', tokenMs: 5 }, { size: 1 });
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

it('adaptDebounce: a slow typist gets no request between the keys of a word, only at the pauses', async () => {
  const fixed = await typeSlowly({});
  const adapted = await typeSlowly({ adaptDebounce: adaptiveDebounce(BOUNDS) });
  expect(fixed).toBeGreaterThanOrEqual(15); // 120 ms runs out between two keys again and again
  expect(adapted).toBeLessThanOrEqual(7); // the first key or two, then one per word
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
