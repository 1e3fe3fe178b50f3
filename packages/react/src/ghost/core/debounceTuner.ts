/** The bounds an adapted debounce stays within, in ms. */
export interface GhostDebounceBounds {
  readonly minMs: number;
  readonly maxMs: number;
}

const KEEP = 32;
/** A gap longer than this between two keys is a pause, whatever the person's rhythm. */
const PAUSE_MS = 1000;

/** The nearest-rank percentile `p` (0..1) of `values` (not empty). */
function rank(values: readonly number[], p: number): number {
  const sorted = values.toSorted((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil(p * sorted.length) - 1)] as number;
}

/**
 * The debounce for one person and one engine: whichever of two waits gets the
 * last key of a word its suggestion sooner.
 * - Their rhythm: just past the longest gap between their keys within a word
 *   (of the last 32 gaps, leaving out pauses: gaps over three times the
 *   median; ×1.02), so no request goes out between two keys of a word only to
 *   be superseded. The last key then waits this long.
 * - The app's `fallbackMs`, when the person is slower than that: a request
 *   sent between two keys holds the engine about twice its first-token time
 *   (its prefill, which no engine stops, and a token; from the median of the
 *   last 32 first tokens, sent to first token, queueing included), so the
 *   next request may wait for what is left of that after the gap. A typist
 *   slower than the engine loses nothing by it.
 * Within `bounds`. Before it has measured a gap it answers `fallbackMs`;
 * before a first token, the rhythm.
 *
 * @example
 * const tuner = new DebounceTuner();
 * for (const gap of [150, 200, 240]) tuner.keyGap(gap);
 * tuner.firstToken(150);
 * tuner.debounceMs({ minMs: 60, maxMs: 600 }, 120); // 245: just past 240 (sending after 120 could wait 300 - 150 more)
 * for (const gap of [400, 450, 500]) tuner.keyGap(gap);
 * tuner.debounceMs({ minMs: 60, maxMs: 600 }, 120); // 120: a request sent early is over before the next key
 */
export class DebounceTuner {
  readonly #gaps: number[] = [];
  readonly #firstTokens: number[] = [];

  /** Records the time between two keys typed one after the other (a pause is left out). */
  keyGap(ms: number): void {
    if (ms > 0 && ms < PAUSE_MS) this.#keep(this.#gaps, ms);
  }

  /** Records how long an engine request took to its first token. */
  firstToken(ms: number): void {
    if (ms >= 0) this.#keep(this.#firstTokens, ms);
  }

  /** The debounce to use now. */
  debounceMs({ minMs, maxMs }: GhostDebounceBounds, fallbackMs: number): number {
    const within = (ms: number) => Math.round(Math.min(maxMs, Math.max(minMs, ms)));
    if (this.#gaps.length === 0) return within(fallbackMs);
    // A gap three times their usual one is a pause between words, not the rhythm within one.
    const usual = rank(this.#gaps, 0.5);
    const inWord = this.#gaps.filter((gap) => gap <= usual * 3);
    const rhythm = Math.max(...inWord) * 1.02;
    if (this.#firstTokens.length === 0 || rhythm <= fallbackMs) return within(rhythm);
    // Sending after `fallbackMs` instead: at worst a request goes out just before the shortest gap it misses, and the next waits out the rest.
    const wasted = rank(this.#firstTokens, 0.5) * 2;
    const missed = Math.min(...inWord.filter((gap) => gap > fallbackMs));
    const early = fallbackMs + Math.max(0, wasted - missed);
    return within(rhythm <= early ? rhythm : fallbackMs);
  }

  #keep(values: number[], ms: number): void {
    values.push(ms);
    if (values.length > KEEP) values.shift();
  }
}
