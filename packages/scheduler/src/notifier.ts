import { guard } from './reportError.js';

/**
 * Batches change notifications: however many changes happen before the
 * scheduled flush, each listener hears about them once. It needs no hooks for
 * the first and last listener, so it keeps a plain set of them rather than
 * building on `Subscribable` (whose hooks an `EnginePool` bundle would carry
 * for nothing).
 */
export class Notifier {
  readonly #listeners = new Set<() => void>();
  readonly #schedule: (flush: () => void) => void;
  #pending = false;

  // Called as a plain function: browsers throw "Illegal invocation" when
  // queueMicrotask runs with `this` set to anything but the global object.
  constructor(schedule: (flush: () => void) => void = (flush) => queueMicrotask(flush)) {
    this.#schedule = schedule;
  }

  /** Adds a listener (once, however often it is given); returns the function that removes it. */
  subscribe(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => {
      this.#listeners.delete(listener);
    };
  }

  /** Records that something changed; listeners hear about it at the next flush. */
  notify(): void {
    if (this.#pending) return;
    this.#pending = true;
    this.#schedule(() => {
      this.#pending = false;
      // A copy, so a listener that unsubscribes another mid-flush is safe.
      // One broken listener must not silence the others or the pool.
      for (const listener of [...this.#listeners]) guard(listener);
    });
  }
}
