import {
  EngineCrashedError,
  EngineLoadError,
  InklingError,
  InvalidOptionError,
  asInklingError,
  describeError,
} from './errors.js';
import type { Job } from './job.js';
import { ENGINE_SHAPE, engineProblem } from './engineProblem.js';
import { type PoolState, type Slot, laneCount, lanesTaken } from './poolState.js';
import { guard } from './reportError.js';
import { hasCrossTaskDemand } from './schedulingPolicy.js';
import type { CreateEngine, CreateEngineOptions, Engine, LoadProgress, PoolLoadProgress, PoolTimers } from './types.js';

/** A slot that dies this many times in a row without a clean job is given up. */
const MAX_CONSECUTIVE_DEATHS = 3;

export interface SlotsOptions {
  createEngine: CreateEngine;
  maxSize: number;
  /** `Infinity`: never shrink. */
  idleTimeoutMs: number;
  timers: PoolTimers;
}

/** An engine that arrived, was checked and took the pool's settings. */
interface Built {
  engine: Engine;
  concurrency: number;
}

/**
 * The engines' lifecycle: the first load, growth on demand, replacement of
 * engines that die, idle shrink, and tearing everything down. Every engine
 * that arrives for an older generation (an `unload()` ran while it was being
 * built) is unloaded rather than installed: installing it would leak a worker
 * and a full copy of the weights nobody holds a reference to.
 *
 * It calls nobody back: it changes engines through `PoolState.dispatch` and
 * says what happened (the jobs an engine death ended, a promise that settles
 * once engines changed), and the pool decides what follows.
 */
export class EngineSlots {
  readonly #state: PoolState;
  readonly #options: SlotsOptions;
  #generation = 0;
  /** Aborted by `detachAll()`, so loads still in flight can stop early. */
  #loadAbort = new AbortController();
  #loading: Promise<number> | null = null;
  #config: Record<string, unknown> = {};

  constructor(state: PoolState, options: SlotsOptions) {
    this.#state = state;
    this.#options = options;
  }

  /** Brings up the first engine (see `EnginePool.load`). */
  load(onProgress?: (report: PoolLoadProgress) => void): Promise<number> {
    const state = this.#state;
    if (this.#loading) return this.#loading;
    if (state.slots.length > 0) return Promise.resolve(state.slots.length);

    const stale = this.#staleCheck();
    this.#state.dispatch({ type: 'load-start' });
    const progress = (report: PoolLoadProgress) => {
      if (stale()) return;
      this.#state.dispatch({ type: 'load-progress', report });
      if (onProgress) guard(() => onProgress(report));
    };
    const loading = this.#build(0, (report) => progress({ ...report, engine: 1, engines: 1 }), stale).then(
      (built) => {
        if (!built) return 0;
        this.#loading = null;
        this.#install(0, built, true);
        return state.slots.length;
      },
      (error: unknown) => {
        if (stale()) return 0;
        this.#loading = null;
        const failure = asInklingError(error, EngineLoadError, 'The model could not be loaded');
        this.#state.dispatch({ type: 'load-fail', error: failure });
        throw failure;
      },
    );
    this.#loading = loading;
    return loading;
  }

  /**
   * Makes every engine in flight stale and returns the engines installed now,
   * for the caller to unload once their jobs are settled.
   */
  detachAll(): Slot[] {
    this.#generation += 1;
    this.#loading = null;
    this.#loadAbort.abort();
    this.#loadAbort = new AbortController();
    const slots = this.#state.slots;
    for (const slot of slots) this.#clearIdleTimer(slot);
    return slots;
  }

  /** Remembers a runtime setting for engines built later; returns how many took it now. */
  configure(patch: Record<string, unknown>): number {
    if (typeof patch !== 'object' || patch === null) {
      throw new InvalidOptionError('configure() takes an object of settings, e.g. { decodeSteps: 4 }.');
    }
    this.#config = { ...this.#config, ...patch };
    let applied = 0;
    for (const { engine } of this.#state.slots) {
      if (typeof engine?.configure !== 'function') continue;
      engine.configure(patch);
      applied += 1;
    }
    return applied;
  }

  /**
   * An engine died: takes its slot down and returns the jobs that were on it,
   * with the crash they end with (the pool ends them, then calls `rebuild`).
   */
  takeDown(slot: Slot, error: unknown): { victims: Job[]; crash: InklingError } {
    const crash =
      error instanceof InklingError
        ? error
        : new EngineCrashedError(
            `Engine ${slot.index + 1} stopped working (${describeError(error)}). Inkling is replacing it; try again in a moment.`,
            { cause: error },
          );
    const victims = [...slot.jobs];
    this.#clearIdleTimer(slot);
    this.#state.dispatch({ type: 'slot-down', slot });
    return { victims, crash };
  }

  /**
   * Unloads the `dead` engine of a slot taken down and builds a replacement in
   * the same slot while queued jobs wait for it. A slot that keeps dying is
   * given up rather than fed the queue one job at a time. Returns, when a
   * replacement is being built, a promise that settles (never rejects) once
   * it is up or the slot is given up.
   */
  rebuild(slot: Slot, dead: Engine | undefined, error: unknown): Promise<void> | undefined {
    void unloadQuietly(dead);
    if (slot.deaths >= MAX_CONSECUTIVE_DEATHS) {
      this.#retire(
        slot,
        new EngineCrashedError(
          `Engine ${slot.index + 1} crashed ${slot.deaths} times in a row, so Inkling stopped restarting it. Last error: ${describeError(error)}. Call pool.load() to try again.`,
          { cause: error },
        ),
      );
      return undefined;
    }
    const stale = this.#staleCheck();
    return this.#build(slot.index, () => {}, stale).then(
      (built) => {
        if (!built) return;
        if (!this.#state.slots.includes(slot)) return unloadQuietly(built.engine);
        this.#state.dispatch({ type: 'slot-up', slot, engine: built.engine, concurrency: built.concurrency });
      },
      (failure: unknown) => {
        if (stale()) return;
        this.#retire(slot, asInklingError(failure, EngineLoadError, 'A crashed engine could not be rebuilt'));
      },
    );
  }

  /**
   * Adds one engine, only when a second one buys something: a job of another
   * task waits on a busy pool. Nothing reports free memory to a page, so the
   * pool does not predict, it probes; a failed load is the answer and is not
   * retried (until `unload()`), since a retry costs another full staging pass
   * to learn the same thing. Returns, when it starts one, a promise that
   * settles (never rejects) once the engine is up or the growth is blocked.
   */
  grow(): Promise<void> | undefined {
    const state = this.#state;
    if (state.growing || state.growthBlocked !== null || state.loading) return undefined;
    if (state.slots.length === 0 || state.slots.length >= this.#options.maxSize) return undefined;
    if (state.slots.some((s) => !s.ready)) return undefined;
    if (!hasCrossTaskDemand(state.queue, state.slots)) return undefined;

    const used = new Set(state.slots.map((s) => s.index));
    let index = 0;
    while (used.has(index)) index += 1;
    const stale = this.#staleCheck();
    this.#state.dispatch({ type: 'grow', growing: true });
    return this.#build(index, () => {}, stale).then(
      (built) => {
        if (!built) return;
        this.#state.dispatch({ type: 'grow', growing: false });
        this.#install(index, built, false);
      },
      (error: unknown) => {
        if (stale()) return;
        // Almost always memory. Staying at the current size is the right
        // outcome, not an error owed to whichever job set it off.
        this.#state.dispatch({ type: 'grow', growing: false, blocked: describeError(error) });
      },
    );
  }

  /** Engines beyond the first are unloaded after `idleTimeoutMs` without work (never when `Infinity`). */
  scheduleIdleShrink(): void {
    if (this.#options.idleTimeoutMs === Number.POSITIVE_INFINITY) return;
    const [, ...extra] = this.#state.slots;
    for (const slot of extra) {
      const idle = slot.ready && lanesTaken(slot) === 0;
      if (!idle) {
        this.#clearIdleTimer(slot);
      } else if (slot.idleTimer === undefined) {
        slot.idleTimer = this.#options.timers.setTimeout(() => {
          slot.idleTimer = undefined;
          this.#shrink(slot);
        }, this.#options.idleTimeoutMs);
      }
    }
  }

  /**
   * Builds engine `index`, checks that an engine arrived and gives it the
   * pool's settings. Resolves `undefined` (having unloaded it) when it arrives
   * for an older generation; rejects when it cannot be built or set up, so no
   * throw on the way can leave a load in flight for ever.
   */
  async #build(index: number, onProgress: (report: LoadProgress) => void, stale: () => boolean): Promise<Built | undefined> {
    const engine = await attempt(() => this.#options.createEngine(index, onProgress, this.#loadOptions()));
    if (stale()) {
      await unloadQuietly(engine);
      return undefined;
    }
    const problem = engineProblem(engine);
    // Not awaited: a broken engine's unload() may never answer, and the load must end.
    if (problem) {
      void unloadQuietly(engine);
      throw new EngineLoadError(`createEngine(${index}) did not give an engine: ${problem}. ${ENGINE_SHAPE}.`);
    }
    try {
      if (Object.keys(this.#config).length > 0 && typeof engine.configure === 'function') engine.configure({ ...this.#config });
      return { engine, concurrency: laneCount(engine) };
    } catch (error) {
      void unloadQuietly(engine);
      throw new EngineLoadError(`Engine ${index + 1} loaded but could not be set up: ${describeError(error)}.`, { cause: error });
    }
  }

  #install(index: number, built: Built, first: boolean): void {
    const slot: Slot = {
      index,
      engine: built.engine,
      ready: true,
      concurrency: built.concurrency,
      jobs: new Set(),
      draining: new Set(),
      idleTimer: undefined,
      deaths: 0,
    };
    this.#state.dispatch({ type: 'slot-add', slot, first });
  }

  /** Drops a slot for good; with none left the pool is in error until `load()`. */
  #retire(slot: Slot, error: InklingError): void {
    this.#state.dispatch({ type: 'slot-remove', slot });
    if (this.#state.slots.length === 0) this.#state.dispatch({ type: 'load-fail', error });
  }

  #shrink(slot: Slot): void {
    const { slots } = this.#state;
    if (slots[0] === slot || !slots.includes(slot) || !slot.ready || lanesTaken(slot) > 0) return;
    this.#state.dispatch({ type: 'slot-remove', slot });
    void unloadQuietly(slot.engine);
  }

  #clearIdleTimer(slot: Slot): void {
    if (slot.idleTimer === undefined) return;
    this.#options.timers.clearTimeout(slot.idleTimer);
    slot.idleTimer = undefined;
  }

  #loadOptions(): CreateEngineOptions {
    return { signal: this.#loadAbort.signal };
  }

  /** True once `detachAll()` has run since this was taken. */
  #staleCheck(): () => boolean {
    const generation = this.#generation;
    return () => generation !== this.#generation;
  }
}

/** Calls `fn`, turning a synchronous throw into a rejected promise. */
function attempt<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return Promise.resolve(fn());
  } catch (error) {
    return Promise.reject(error);
  }
}

export async function unloadQuietly(engine: Engine | undefined): Promise<void> {
  try {
    await engine?.unload?.();
  } catch {
    // The engine is being thrown away; a failure to tidy up changes nothing.
  }
}
