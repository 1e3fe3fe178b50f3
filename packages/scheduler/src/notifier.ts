import { guard } from './reportError.js';
import { Subscribable } from './subscribable.js';

/**
 * Batches change notifications: however many changes happen before the
 * scheduled flush, each listener hears about them once. Listeners come and go
 * through `Subscribable`.
 */
export class Notifier extends Subscribable {
  readonly #schedule: (flush: () => void) => void;
  #pending = false;

  // Called as a plain function: browsers throw "Illegal invocation" when
  // queueMicrotask runs with `this` set to anything but the global object.
  constructor(schedule: (flush: () => void) => void = (flush) => queueMicrotask(flush)) {
    super();
    this.#schedule = schedule;
  }

  /** Records that something changed; listeners hear about it at the next flush. */
  notify(): void {
    if (this.#pending) return;
    this.#pending = true;
    this.#schedule(this.#flush);
  }

  readonly #flush = (): void => {
    this.#pending = false;
    // A copy, so a listener that unsubscribes another mid-flush is safe.
    // One broken listener must not silence the others or the pool.
    for (const listener of [...this.listeners]) guard(listener);
  };
}
