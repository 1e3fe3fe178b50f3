import { NotifyScheduler } from '@inkling/scheduler/engine';
import { Subscribable } from '@inkling/scheduler';
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
 * Subscription is the lifecycle: `onStart` runs when the first listener
 * arrives, `onStop` a microtask after the last one leaves unless another
 * arrived meanwhile. React StrictMode's subscribe, unsubscribe, subscribe runs
 * in one task, so work started by the first survives the rehearsal.
 *
 * @example
 * class Counter extends Store<number> {
 *   constructor() { super(0); }
 *   add() { this.commit(this.state + 1, 'now'); }
 * }
 */
export abstract class Store<S> extends Subscribable {
  /** The notification due at the end of this microtask (`'now'`)... */
  readonly #now: NotifyScheduler;
  /** ...and at the next frame (`'frame'`). */
  readonly #frame: NotifyScheduler;
  #state: S;
  /** Builds the state a `commitLazy` described, when it is first read. */
  #build: (() => S) | undefined;
  /** The last listener left and `onStop` is due at the next microtask. */
  #stopping = false;

  protected constructor(initial: S, scheduleFrame: FrameScheduler = animationFrame) {
    super();
    this.#state = initial;
    this.#now = new NotifyScheduler(this.#flush);
    this.#frame = new NotifyScheduler(this.#flush, scheduleFrame);
  }

  /** The current state; the same object until something changes. Bound. */
  readonly getSnapshot = (): S => {
    const build = this.#build;
    if (build) {
      this.#build = undefined;
      this.#state = build();
    }
    return this.#state;
  };

  protected override onSubscribe(): void {
    if (this.#stopping) this.#stopping = false; // back within the microtask: never stopped
    else this.onStart();
  }

  protected override onUnsubscribe(): void {
    this.#stopping = true;
    queueMicrotask(() => {
      if (!this.#stopping) return;
      this.#stopping = false;
      this.onStop();
    });
  }

  /** The first listener arrived (a component mounted): resume work. Default: nothing. */
  protected onStart(): void {}

  /** No listener is left (the last component unmounted): stop work. Default: nothing. */
  protected onStop(): void {}

  protected get state(): S {
    return this.getSnapshot();
  }

  /** Replaces the state and schedules the notification. */
  protected commit(next: S, urgency: Urgency): void {
    if (!this.#build && Object.is(next, this.#state)) return;
    this.#build = undefined;
    this.#state = next;
    this.#notify(urgency);
  }

  /**
   * Says the state has changed without building it: `build` runs when the
   * state is next read (by a listener, a render, or the subclass), once
   * however many changes came before. For a state that is costly to build
   * and changes many times between two renders.
   */
  protected commitLazy(build: () => S, urgency: Urgency): void {
    this.#build = build;
    this.#notify(urgency);
  }

  #notify(urgency: Urgency): void {
    // A flush already due at the end of this microtask comes before any frame (and calls the frame off).
    if (this.#now.pending) return;
    if (urgency === 'now') this.#now.request();
    else this.#frame.request();
  }

  /** Calls off a pending frame notification (on disposal: no timer left behind). */
  protected cancelPendingFrame(): void {
    this.#frame.cancel();
  }

  readonly #flush = (): void => {
    this.#now.cancel();
    this.#frame.cancel();
    this.emit();
  };
}
