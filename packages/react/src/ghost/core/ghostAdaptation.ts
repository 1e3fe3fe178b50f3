import type { GhostContext } from './ghostPrompt.js';
import type { GhostTextEvent } from './ghostTextEvents.js';
import type { GhostTextOptions } from './ghostTextOptions.js';
import { DebounceTuner } from './debounceTuner.js';
import { typedSince } from './projectGhostText.js';

/**
 * What ghost text learns from the person and the engine, for the options
 * that adapt it: `pause` (suggestions turned down in a row hold the engine
 * back for a while) and `adaptDebounce` (the debounce from the typing rhythm
 * and the first-token time). Framework-free; the controller tells it what
 * happens and asks it two things: the debounce, and whether it is paused.
 *
 * @example
 * const adaptation = new GhostAdaptation(() => performance.now());
 * adaptation.moved(options, previous, context);
 * setTimeout(ask, adaptation.debounceMs(options));
 */
export class GhostAdaptation {
  readonly #now: () => number;
  readonly #tuner = new DebounceTuner();
  #rejections = 0;
  #pausedUntil: number | null = null;
  #movedAt: number | null = null;
  #sentAt = 0;

  constructor(now: () => number) {
    this.#now = now;
  }

  /** The text or caret moved: one key typed after another is the typing rhythm. */
  moved({ adaptDebounce }: GhostTextOptions, previous: GhostContext | null, context: GhostContext): void {
    if (!adaptDebounce) return;
    const now = this.#now();
    const typed = previous ? typedSince(previous, context) : undefined;
    if (typed?.length === 1 && this.#movedAt !== null) this.#tuner.keyGap(now - this.#movedAt);
    this.#movedAt = now;
  }

  /** An interactive request was sent. */
  sent(): void {
    this.#sentAt = this.#now();
  }

  /** The interactive request's first token arrived. */
  firstToken({ adaptDebounce }: GhostTextOptions): void {
    if (adaptDebounce) this.#tuner.firstToken(this.#now() - this.#sentAt);
  }

  /** What a suggestion became: a rejection counts toward `pause`, an accept starts the count again. */
  heard({ pause }: GhostTextOptions, event: GhostTextEvent): void {
    if (!pause) return;
    if (event.type === 'accepted') {
      this.#rejections = 0;
      this.#pausedUntil = null;
    } else if (event.type === 'rejected') {
      this.#rejections += 1;
      if (this.#rejections >= pause.afterRejections) this.#pausedUntil = this.#now() + (pause.resumeAfterMs ?? 30_000);
    }
  }

  /** Whether `pause` holds the engine back now (a pause that ran out starts the count again). */
  paused({ pause }: GhostTextOptions): boolean {
    if (this.#pausedUntil === null || !pause) return false;
    if (this.#now() < this.#pausedUntil) return true;
    this.#pausedUntil = null;
    this.#rejections = 0;
    return false;
  }

  /** The debounce to wait now: `debounceMs` (default `120`), or what `adaptDebounce` makes of it. */
  debounceMs({ debounceMs = 120, adaptDebounce }: GhostTextOptions): number {
    return adaptDebounce ? this.#tuner.debounceMs(adaptDebounce, debounceMs) : debounceMs;
  }
}
