/**
 * A deterministic pseudo-random source (the mulberry32 generator): the same
 * `seed` gives the same sequence on every run and every machine, so a test
 * that draws keystrokes, delays or texts from it repeats exactly. Not for
 * anything that needs unpredictability.
 *
 * @param seed Any number; only its low 32 bits are used.
 * @returns A function returning the next number of the sequence, in [0, 1).
 * @example
 * const next = seededRandom(2026);
 * const delayMs = Math.floor(next() * 50); // the same on every run
 */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}
