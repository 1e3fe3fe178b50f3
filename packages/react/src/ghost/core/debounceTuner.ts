/** The bounds an adapted debounce stays within, in ms. */
export interface GhostDebounceBounds {
  readonly minMs: number;
  readonly maxMs: number;
}

const KEEP = 32;
/** A gap longer than this between two keys is a pause, not the typing rhythm. */
const PAUSE_MS = 1000;

/** The nearest-rank percentile `p` (0..1) of `values` (not empty). */
function rank(values: readonly number[], p: number): number {
  const sorted = values.toSorted((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil(p * sorted.length) - 1)] as number;
}

/**
 * The debounce for one person and one engine: a little longer than the gaps
 * between their keys within a word (the 75th percentile of the last 32, ×1.25),
 * so a request is not sent between two keys of a word only to be superseded
 * by the next, and at least a quarter of the engine's first-token time (the
 * median of the last 32), so a slow engine is not handed requests it cannot
 * answer before the next key; within `bounds`. Before it has measured
 * anything it answers `fallbackMs`.
 *
 * @example
 * const tuner = new DebounceTuner();
 * tuner.keyGap(90); tuner.firstToken(300);
 * tuner.debounceMs({ minMs: 60, maxMs: 400 }, 120); // 113 (90 × 1.25)
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
    if (this.#gaps.length === 0) return Math.min(maxMs, Math.max(minMs, fallbackMs));
    const rhythm = rank(this.#gaps, 0.75) * 1.25;
    const engine = this.#firstTokens.length ? rank(this.#firstTokens, 0.5) / 4 : 0;
    return Math.round(Math.min(maxMs, Math.max(minMs, rhythm, engine)));
  }

  #keep(values: number[], ms: number): void {
    values.push(ms);
    if (values.length > KEEP) values.shift();
  }
}
