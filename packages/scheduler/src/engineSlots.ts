import { EngineCrashedError, EngineLoadError, InklingError, InvalidOptionError, asInklingError, describeError } from './errors.js';
import type { Job } from './job.js';
import { ENGINE_SHAPE, engineProblem } from './engineProblem.js';
import { type PoolState, type Slot, laneCount } from './poolState.js';
import { guard } from './reportError.js';
import { isObject, mustBe } from './rules.js';
import { lanesTaken, wantsAnotherEngine } from './schedulingPolicy.js';
import type { CreateEngine, Engine, LoadProgress, PoolLoadProgress, PoolTimers } from './types.js';

/** A slot that dies this many times in a row without a clean job is given up. */
const MAX_CONSECUTIVE_DEATHS = 3;

export interface SlotsOptions {
  createEngine: CreateEngine;
  maxSize: number;
  /** `Infinity`: never shrink. */
  idleTimeoutMs: number;
  /** Engines of several lanes grow as one-lane engines do (`EnginePoolOptions.growWhenLanesFull`). */
  growWhenLanesFull: boolean;
  timers: PoolTimers;
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
  /**
   * The generation: aborted by `detachAll()`, so loads still in flight can
   * stop early and whatever they still bring is known to be stale.
   */
  #loadAbort = new AbortController();
  #loading: Promise<number> | null = null;
  /** Every `load()` caller's progress callback, for the load in flight. */
  #listeners = new Set<(report: PoolLoadProgress) => void>();
  #config: Record<string, unknown> = {};

  constructor(state: PoolState, options: SlotsOptions) {
    this.#state = state;
    this.#options = options;
  }

  /** Brings up the first engine (see `EnginePool.load`). */
  load(onProgress?: (report: PoolLoadProgress) => void): Promise<number> {
    const state = this.#state;
    if (this.#loading) {
      // A second caller joins the load in flight: it hears where it is now, then the rest.
      const now = state.loadProgress;
      if (onProgress) {
        this.#listeners.add(onProgress);
        if (now) guard(() => onProgress(now));
      }
      return this.#loading;
    }
    if (state.slots.length > 0) return Promise.resolve(state.slots.length);

    const { signal } = this.#loadAbort;
    const listeners = new Set(onProgress ? [onProgress] : []);
    this.#listeners = listeners;
    state.dispatch({ type: 'load', progress: { progress: 0, text: 'Starting', engine: 1, engines: 1 } });
    const progress = (engineReport: LoadProgress) => {
      if (signal.aborted) return;
      const report = { ...engineReport, engine: 1, engines: 1 };
      state.dispatch({ type: 'load', progress: report });
      for (const listener of listeners) guard(() => listener(report));
    };
    this.#loading = this.#build(0, progress).then(
      (slot) => {
        if (!slot) return 0;
        this.#loading = null;
        state.dispatch({ type: 'slot-add', slot });
        return state.slots.length;
      },
      (error: unknown) => {
        this.#loading = null;
        const failure = asInklingError(error, EngineLoadError, 'The model could not be loaded');
        state.dispatch({ type: 'load', progress: null, error: failure });
        throw failure;
      },
    );
    return this.#loading;
  }

  /**
   * Makes every engine in flight stale and returns the engines installed now,
   * for the caller to unload once their jobs are settled.
   */
  detachAll(): Slot[] {
    this.#loading = null;
    this.#loadAbort.abort();
    this.#loadAbort = new AbortController();
    const slots = this.#state.slots;
    for (const slot of slots) this.#clearIdleTimer(slot);
    return slots;
  }

  /** Remembers a runtime setting for engines built later; returns how many took it now. */
  configure(patch: Record<string, unknown>): number {
    if (!isObject(patch)) throw new InvalidOptionError(mustBe('configure() settings', 'an object, e.g. { decodeSteps: 4 }', patch));
    this.#config = { ...this.#config, ...patch };
    let applied = 0;
    for (const { engine } of this.#state.slots) {
      if (!engine?.configure) continue;
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
    const crash = asInklingError(error, EngineCrashedError, `Engine ${slot.index + 1} crashed and is being replaced`);
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
    const giveUp = (failure: InklingError) => {
      this.#state.dispatch({ type: 'slot-remove', slot });
      if (this.#state.slots.length === 0) this.#state.dispatch({ type: 'load', progress: null, error: failure });
    };
    if (slot.deaths >= MAX_CONSECUTIVE_DEATHS) {
      giveUp(
        new EngineCrashedError(
          `Engine ${slot.index + 1} crashed ${slot.deaths} times in a row (last: ${describeError(error)}); call pool.load() to try again.`,
          { cause: error },
        ),
      );
      return undefined;
    }
    return this.#build(slot.index).then(
      (built) => {
        if (!built) return;
        if (!this.#state.slots.includes(slot)) return unloadQuietly(built.engine);
        this.#state.dispatch({ type: 'slot-up', slot, engine: built.engine, concurrency: built.concurrency });
      },
      (failure: unknown) => giveUp(asInklingError(failure, EngineLoadError, 'A crashed engine could not be rebuilt')),
    );
  }

  /**
   * Adds one engine, only when a second one buys something: a job of another
   * task waits on a busy pool of one-lane engines, or on engines of several
   * lanes a job no lane can take (see `wantsAnotherEngine`). Nothing reports free memory to a page, so the
   * pool does not predict, it probes; a failed load is the answer and is not
   * retried (until `unload()`), since a retry costs another full staging pass
   * to learn the same thing. Returns, when it starts one, a promise that
   * settles (never rejects) once the engine is up or the growth is blocked.
   */
  grow(): Promise<void> | undefined {
    const state = this.#state;
    const { slots } = state;
    if (state.growing || state.growthBlocked !== null || state.loading || slots.length >= this.#options.maxSize) return undefined;
    if (!slots.every((s) => s.ready) || !wantsAnotherEngine(state.queue, slots, this.#options.growWhenLanesFull)) return undefined;

    let index = 0;
    while (slots.some((s) => s.index === index)) index += 1;
    state.dispatch({ type: 'grow', growing: true });
    return this.#build(index).then(
      (slot) => {
        if (!slot) return;
        state.dispatch({ type: 'grow', growing: false });
        state.dispatch({ type: 'slot-add', slot });
      },
      // Almost always memory. Staying at the current size is the right
      // outcome, not an error owed to whichever job set it off.
      (error: unknown) => state.dispatch({ type: 'grow', growing: false, blocked: describeError(error) }),
    );
  }

  /** Engines beyond the first are unloaded after `idleTimeoutMs` without work (never when `Infinity`). */
  scheduleIdleShrink(): void {
    const { idleTimeoutMs, timers } = this.#options;
    if (idleTimeoutMs === Infinity) return;
    const [, ...extra] = this.#state.slots;
    for (const slot of extra) {
      if (!idle(slot)) {
        this.#clearIdleTimer(slot);
      } else {
        slot.idleTimer ??= timers.setTimeout(() => {
          slot.idleTimer = undefined;
          const { slots } = this.#state;
          if (slots[0] === slot || !slots.includes(slot) || !idle(slot)) return;
          this.#state.dispatch({ type: 'slot-remove', slot });
          void unloadQuietly(slot.engine);
        }, idleTimeoutMs);
      }
    }
  }

  /**
   * Builds engine `index`, checks that an engine arrived and gives it the
   * pool's settings, in a new slot. Resolves `undefined` when the engine
   * arrives (having unloaded it) or fails for an older generation; rejects
   * when it cannot be built or set up, so no throw on the way can leave a
   * load in flight for ever.
   */
  async #build(index: number, onProgress: (report: LoadProgress) => void = () => {}): Promise<Slot | undefined> {
    const { signal } = this.#loadAbort;
    let engine: Engine;
    try {
      engine = await this.#options.createEngine(index, onProgress, { signal });
    } catch (error) {
      if (signal.aborted) return undefined;
      throw error;
    }
    if (signal.aborted) {
      await unloadQuietly(engine);
      return undefined;
    }
    try {
      const problem = engineProblem(engine);
      if (problem) throw new EngineLoadError(`createEngine(${index}) did not give an engine: ${problem}. ${ENGINE_SHAPE}.`);
      // `engineProblem` has checked that `configure` is a function when present.
      if (Object.keys(this.#config).length > 0) engine.configure?.({ ...this.#config });
      return {
        index,
        engine,
        ready: true,
        concurrency: laneCount(engine),
        jobs: new Set(),
        draining: new Set(),
        idleTimer: undefined,
        deaths: 0,
        heldTasks: new Set(),
        heldUntil: 0,
      };
    } catch (error) {
      // Not awaited: a broken engine's unload() may never answer, and the load must end.
      void unloadQuietly(engine);
      throw error instanceof EngineLoadError
        ? error
        : new EngineLoadError(`Engine ${index + 1} loaded but could not be set up: ${describeError(error)}.`, { cause: error });
    }
  }

  #clearIdleTimer(slot: Slot): void {
    if (slot.idleTimer === undefined) return;
    this.#options.timers.clearTimeout(slot.idleTimer);
    slot.idleTimer = undefined;
  }
}

/** Ready, with no lane taken. */
function idle(slot: Slot): boolean {
  return slot.ready && lanesTaken(slot) === 0;
}

export async function unloadQuietly(engine: Engine | undefined): Promise<void> {
  try {
    await engine?.unload?.();
  } catch {
    // The engine is being thrown away; a failure to tidy up changes nothing.
  }
}
