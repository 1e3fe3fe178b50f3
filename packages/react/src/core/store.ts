import { type FrameScheduler, animationFrame } from './frameScheduler.js';

/**
 * When listeners hear about a change: `'now'` at the end of the current
 * microtask (a burst of changes is one notification), `'frame'` at the next
 * animation frame (a stream of tokens is one notification per frame).
 */
export type Urgency = 'now' | 'frame';

/**
 * An external store for `useSyncExternalStore`: one immutable state object,
 * the same until it changes; `subscribe` returns its unsubscribe. Subclasses
 * change state only through `commit`, saying how urgently listeners must hear.
 *
 * `getSnapshot` always returns the newest state (so a render for any other
 * reason never shows something stale); only the notifications are coalesced.
 *
 * @example
 * class Counter extends Store<number> {
 *   constructor() { super(0); }
 *   add() { this.commit(this.state + 1, 'now'); }
 * }
 */
export abstract class Store<S> {
  readonly #listeners = new Set<() => void>();
  readonly #scheduleFrame: FrameScheduler;
  #state: S;
  #cancelFrame: (() => void) | undefined;
  #microtask = false;

  protected constructor(initial: S, scheduleFrame: FrameScheduler = animationFrame) {
    this.#state = initial;
    this.#scheduleFrame = scheduleFrame;
  }

  /** Listens for changes; returns the function that stops listening. Bound. */
  readonly subscribe = (listener: () => void): (() => void) => {
    this.#listeners.add(listener);
    return () => {
      this.#listeners.delete(listener);
    };
  };

  /** The current state; the same object until something changes. Bound. */
  readonly getSnapshot = (): S => this.#state;

  protected get state(): S {
    return this.#state;
  }

  /** Replaces the state and schedules the notification. */
  protected commit(next: S, urgency: Urgency): void {
    if (Object.is(next, this.#state)) return;
    this.#state = next;
    if (urgency === 'now') {
      this.#cancelFrame?.();
      this.#cancelFrame = undefined;
      if (this.#microtask) return;
      this.#microtask = true;
      queueMicrotask(this.#flush);
    } else if (!this.#cancelFrame && !this.#microtask) {
      this.#cancelFrame = this.#scheduleFrame(this.#flush);
    }
  }

  /** Calls off a pending frame notification (on disposal: no timer left behind). */
  protected cancelPendingFrame(): void {
    this.#cancelFrame?.();
    this.#cancelFrame = undefined;
  }

  readonly #flush = (): void => {
    this.#microtask = false;
    this.#cancelFrame?.();
    this.#cancelFrame = undefined;
    for (const listener of [...this.#listeners]) listener();
  };
}
