import { DEVICE_YIELD_MS } from './constants.js';
import { EngineStalledError } from './errors.js';
import { type Job, isStopping } from './job.js';
import type { PoolState, Slot } from './poolState.js';
import { guard } from './reportError.js';
import { runJob } from './runJob.js';
import type { Engine, PoolTimers } from './types.js';

/**
 * The engine calls behind running jobs: starts each on its lane, records what
 * it streams, and stops it when asked. `start` returns the engine call, and
 * the pool, which settles it, decides what its end means (the lane is free,
 * the job is done, the engine died).
 *
 * A call asked to stop is watched: it gets `stallTimeoutMs` to show progress
 * (a chunk re-arms the clock) or to answer. One that does neither means a
 * wedged engine, reported through `onStall`, once. Why a call and not the
 * engine: on an engine with several lanes the other lanes may stream happily
 * while one call ignores its stop, and that lane would be lost for good.
 */
export class EngineCalls {
  /** Stall timers of calls asked to stop, by job. */
  readonly #stalls = new Map<Job, unknown>();
  /** Interactive jobs waiting for their first token: the device their engine computes on, and the engine. */
  readonly #firsts = new Map<Job, Place>();
  /** Steps of other jobs held until those first tokens come (`Engine.device`). */
  readonly #turns = new Map<Job, { go: () => void; place: Place }>();

  readonly #state: PoolState;
  readonly #now: () => number;
  readonly #timers: PoolTimers;
  /** How long a stopped call may stay silent, in milliseconds (`Infinity`: for ever). */
  readonly #stallTimeoutMs: number;
  readonly #onStall: (slot: Slot, engine: Engine) => void;

  constructor(
    state: PoolState,
    now: () => number,
    timers: PoolTimers,
    stallTimeoutMs: number,
    onStall: (slot: Slot, engine: Engine) => void,
  ) {
    this.#state = state;
    this.#now = now;
    this.#timers = timers;
    this.#stallTimeoutMs = stallTimeoutMs;
    this.#onStall = onStall;
  }

  /** Starts `job` on a lane of `slot`; resolves (or rejects with the engine's error) once the lane is free. */
  start(slot: Slot, job: Job): Promise<void> {
    const state = this.#state;
    const now = this.#now;
    state.dispatch({ type: 'start', job, slot, at: now() });
    const engine = slot.engine as Engine;
    const device = engine.device;
    if (device !== undefined && job.priority === 'interactive') this.#firsts.set(job, { device, engine });
    return runJob(engine, job, {
      interrupt: () => interrupt(slot, engine),
      opened: () => state.dispatch({ type: 'open', job }),
      turn: () => this.#turn(job, device === undefined ? undefined : { device, engine }),
      chunk: (chunk) => {
        this.#firstCame(job);
        // A chunk after a stop is progress: the engine is alive, just not done.
        if (this.#stalls.has(job)) this.#watch(job, slot, engine);
        if (job.state === 'done') return; // settled and draining: nobody reads it
        const show = !isStopping(job);
        state.dispatch({ type: 'chunk', job, chunk, at: now() });
        // The chunk goes on verbatim: it is already a complete OpenAI envelope.
        const { onChunk } = job.spec;
        if (show && onChunk) guard(() => onChunk(chunk));
      },
      embedded: (response) => state.dispatch({ type: 'embedded', job, response, at: now() }),
    }).finally(() => {
      this.#unwatch(job);
      this.#firstCame(job);
    });
  }

  /** Tells the engine call of `job`, running in `slot`, to stop, and watches it until it answers. */
  halt(job: Job, slot: Slot): void {
    job.controller?.abort();
    // A stopping job does not wait for its turn.
    this.#turns.get(job)?.go();
    const { engine } = slot;
    if (!engine) return;
    // Only a generation that has started can be interrupted; one that has not
    // is closed unstarted by `runJob` (see there for why).
    if (job.streamOpen) interrupt(slot, engine);
    this.#watch(job, slot, engine);
  }

  /** Stops watching every call (the pool is unloading). */
  unwatchAll(): void {
    for (const job of [...this.#stalls.keys()]) this.#unwatch(job);
    this.#firsts.clear();
    for (const { go } of [...this.#turns.values()]) go();
  }

  /**
   * Whether `job`'s next step waits: yes while an interactive job on its
   * device, on another engine, waits for a first token. An engine of several
   * lanes orders its own work (a new job's prefill before the batch's next
   * step), so its other lanes are not held for a job on the same engine.
   */
  #turn(job: Job, place: Place | undefined): Promise<void> | undefined {
    if (place === undefined || job.priority === 'interactive') return undefined;
    if (![...this.#firsts.values()].some((first) => holds(first, place))) return undefined;
    return new Promise((resolve) => {
      const timer = this.#timers.setTimeout(() => go(), DEVICE_YIELD_MS);
      const go = () => {
        this.#timers.clearTimeout(timer);
        this.#turns.delete(job);
        resolve();
      };
      this.#turns.set(job, { go, place });
    });
  }

  /** `job` has its first token, or ended: held steps go when no other first token is awaited on their device. */
  #firstCame(job: Job): void {
    if (!this.#firsts.delete(job)) return;
    const awaited = [...this.#firsts.values()];
    for (const { go, place } of [...this.#turns.values()]) if (!awaited.some((first) => holds(first, place))) go();
  }

  /** Why an engine asked to stop and then silent for `stallTimeoutMs` is replaced. */
  stalledError(slot: Slot): EngineStalledError {
    return new EngineStalledError(
      `Engine ${slot.index + 1} sent nothing for ${this.#stallTimeoutMs} ms after a stop and is being replaced; if this repeats, raise "stallTimeoutMs".`,
    );
  }

  #watch(job: Job, slot: Slot, engine: Engine): void {
    if (this.#stallTimeoutMs === Infinity) return;
    this.#unwatch(job);
    const timer = this.#timers.setTimeout(() => {
      this.#stalls.delete(job);
      this.#onStall(slot, engine);
    }, this.#stallTimeoutMs);
    this.#stalls.set(job, timer);
  }

  #unwatch(job: Job): void {
    if (!this.#stalls.has(job)) return;
    this.#timers.clearTimeout(this.#stalls.get(job));
    this.#stalls.delete(job);
  }
}

/** Where a job runs: its engine, and the device that engine computes on. */
interface Place {
  device: string;
  engine: Engine;
}

/** Whether an interactive job waiting at `first` holds the steps of a job at `other`: same device, another engine. */
function holds(first: Place, other: Place): boolean {
  return first.device === other.device && first.engine !== other.engine;
}

/** `interruptGenerate` stops everything on an engine, so only a one-lane engine gets it. */
function interrupt(slot: Slot, engine: Engine): void {
  if (slot.concurrency !== 1) return;
  guard(() => engine.interruptGenerate());
}
