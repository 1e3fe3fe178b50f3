import { guard } from './reportError.js';

/**
 * The one subscription primitive: a set of listeners, with a hook when the
 * first one arrives and another when the last one leaves, so whatever has
 * listeners starts its work then and stops it after (no second mount
 * mechanism). `subscribe` is bound and returns its unsubscribe, which may be
 * called any number of times.
 *
 * @example
 * class Clock extends Subscribable {
 *   #timer: ReturnType<typeof setInterval> | undefined;
 *   protected override onSubscribe() { this.#timer = setInterval(() => this.tick(), 1000); }
 *   protected override onUnsubscribe() { clearInterval(this.#timer); }
 *   tick() { this.emit(); }
 * }
 */
export class Subscribable {
  /** The listeners now, in the order they subscribed. */
  protected readonly listeners = new Set<() => void>();

  /** Adds a listener; returns the function that removes it. Bound. */
  readonly subscribe = (listener: () => void): (() => void) => {
    // A function already listening is one listener: it neither counts twice nor starts anything.
    if (this.listeners.has(listener)) return () => this.#remove(listener);
    this.listeners.add(listener);
    if (this.listeners.size === 1) this.onSubscribe();
    return () => this.#remove(listener);
  };

  /**
   * Calls every listener now, in the order they subscribed. One that throws
   * is reported (the platform's `reportError`) and the rest still hear; one
   * that unsubscribes another mid-call is safe.
   */
  protected emit(): void {
    for (const listener of [...this.listeners]) guard(listener);
  }

  /** Whether anything listens now. */
  hasListeners(): boolean {
    return this.listeners.size > 0;
  }

  /** Runs when the first listener arrives. Default: nothing. */
  protected onSubscribe(): void {}

  /** Runs when the last listener leaves. Default: nothing. */
  protected onUnsubscribe(): void {}

  #remove(listener: () => void): void {
    if (this.listeners.delete(listener) && this.listeners.size === 0) this.onUnsubscribe();
  }
}
