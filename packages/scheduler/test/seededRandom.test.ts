import { describe, expect, it } from 'vitest';
import { seededRandom } from '../src/testing/index.js';

/** The first five draws for `seed`. */
function draw(seed: number): number[] {
  const next = seededRandom(seed);
  return Array.from({ length: 5 }, () => next());
}

/** mulberry32's first three draws for seed 1. */
const FIRST_FOR_SEED_1 = [0.6270739405881613, 0.002735721180215478, 0.5274470399599522];

describe('seededRandom', () => {
  it('repeats its sequence for a seed, and another seed gives another sequence', () => {
    expect(draw(7)).toEqual(draw(7));
    expect(draw(7)).not.toEqual(draw(8));
  });

  it('draws numbers in [0, 1) spread over the whole range', () => {
    const next = seededRandom(2026);
    const values = Array.from({ length: 1000 }, () => next());
    expect(values.every((v) => v >= 0 && v < 1)).toBe(true);
    // Each tenth of the range gets some of a thousand draws.
    const tenths = new Set(values.map((v) => Math.floor(v * 10)));
    expect(tenths.size).toBe(10);
  });

  it('keeps the mulberry32 sequence that seeded tests and bench/shared/stats.ts were written against', () => {
    const next = seededRandom(1);
    expect([next(), next(), next()]).toEqual(FIRST_FOR_SEED_1);
  });
});
