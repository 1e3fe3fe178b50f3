/**
 * Runs a flush later: `schedule(run)` calls `run` once, at the time it
 * chooses, and may return a function that calls it off.
 */
export type ScheduleFlush = (run: () => void) => (() => void) | void;

// Called as a plain function: browsers throw "Illegal invocation" when
// queueMicrotask runs with `this` set to anything but the global object.
const microtask: ScheduleFlush = (run) => queueMicrotask(run);

/**
 * When listeners hear about changes: however many changes ask before the
 * flush runs, it runs once. The one timing mechanism of Inkling's stores
 * (the pool's snapshot, the React controllers' states); who listens is a
 * `Subscribable`'s.
 *
 * @example
 * class Counter extends Subscribable {
 *   #count = 0;
 *   readonly #notify = new NotifyScheduler(() => this.emit());
 *   add() { this.#count += 1; this.#notify.request(); } // a burst of adds: one notification
 * }
 */
export class NotifyScheduler {
  readonly #flush: () => void;
  readonly #schedule: ScheduleFlush;
  #pending = false;
  #cancel: (() => void) | void = undefined;

  /** `schedule` default: the end of the current microtask. */
  constructor(flush: () => void, schedule: ScheduleFlush = microtask) {
    this.#flush = flush;
    this.#schedule = schedule;
  }

  /** Whether a flush is due. */
  get pending(): boolean {
    return this.#pending;
  }

  /** Asks for a flush; one already due covers this request too. */
  request(): void {
    if (this.#pending) return;
    this.#pending = true;
    this.#cancel = this.#schedule(this.#run);
  }

  /** Calls off the flush that is due, if any (and if the schedule can call it off). */
  cancel(): void {
    if (!this.#pending) return;
    this.#pending = false;
    const cancel = this.#cancel;
    this.#cancel = undefined;
    cancel?.();
  }

  readonly #run = (): void => {
    if (!this.#pending) return; // called off by a schedule that could not stop it
    this.#pending = false;
    this.#cancel = undefined;
    this.#flush();
  };
}
