/** The bounds an adapted debounce stays within, in ms. */
export interface GhostDebounceBounds {
  readonly minMs: number;
  readonly maxMs: number;
}

const KEEP = 32;
/** Fewer gaps than this say too little of the longest one: a key slower than all so far would send a request for nothing. */
const MIN_GAPS = 8;
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
 *   median; ×1.1, as a new gap may be a little longer than all before it), so
 *   no request goes out between two keys of a word only to
 *   be superseded. The last key then waits this long.
 * - The app's `fallbackMs`, when the person is slower than that: a request
 *   sent between two keys holds the engine until its first token (its
 *   prefill, which no engine stops; the 10th percentile of the last 32 first
 *   tokens, sent to first token, so one that queued behind another request
 *   does not count as prefill), so the next request may
 *   wait for what is left of that after the gap. The rhythm is chosen only
 *   when that wait would cost the last key more than waiting out the rhythm
 *   does: with an engine slower than the person's keys, not with a quick one.
 * Within `bounds`. Before it has measured 8 gaps it answers `fallbackMs`;
 * before a first token, the rhythm only when it is quicker than `fallbackMs`.
 *
 * @example
 * const tuner = new DebounceTuner();
 * for (const gap of [150, 200, 240]) tuner.keyGap(gap);
 * tuner.firstToken(400);
 * tuner.debounceMs({ minMs: 60, maxMs: 600 }, 120); // 245: just past 240 (sending after 120 could wait 400 - 150 more)
 * for (const gap of [450, 500, 550]) tuner.keyGap(gap);
 * tuner.debounceMs({ minMs: 60, maxMs: 600 }, 120); // 120: a request sent early is past its prefill before the next key
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
    if (this.#gaps.length < MIN_GAPS) return within(fallbackMs);
    // A gap three times their usual one is a pause between words, not the rhythm within one.
    const usual = rank(this.#gaps, 0.5);
    const inWord = this.#gaps.filter((gap) => gap <= usual * 3);
    const rhythm = Math.max(...inWord) * 1.1;
    if (rhythm <= fallbackMs) return within(rhythm);
    // Not knowing yet what an early request costs, it waits no longer than the app asked.
    if (this.#firstTokens.length === 0) return within(fallbackMs);
    // Sending after `fallbackMs` instead: at worst a request goes out just before the shortest gap it misses, and the next waits out the rest of its prefill.
    // The engine's own prefill: a low first token (one sent to an idle engine), not one that queued behind an early request.
    const wasted = rank(this.#firstTokens, 0.1);
    const missed = Math.min(...inWord.filter((gap) => gap > fallbackMs));
    const early = fallbackMs + Math.max(0, wasted - missed);
    return within(rhythm <= early ? rhythm : fallbackMs);
  }

  #keep(values: number[], ms: number): void {
    values.push(ms);
    if (values.length > KEEP) values.shift();
  }
}
