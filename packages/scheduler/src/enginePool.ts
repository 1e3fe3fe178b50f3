import {
  EngineCrashedError,
  EngineError,
  EngineLoadError,
  InklingError,
  InvalidOptionError,
  asInklingError,
  describeError,
  isFatalEngineError,
} from './errors.js';
import { type Job, buildResult, createJob, isStopping } from './job.js';
import { Notifier } from './notifier.js';
import { type PoolAction, PoolState, type Slot, laneCount } from './poolState.js';
import { type JobCall, runJob } from './runJob.js';
import { guard } from './reportError.js';
import { hasCrossTaskDemand, pickNext, pickVictim, preemptionsWanted } from './schedulingPolicy.js';
import type {
  CancelReason,
  ChatCompletionChunk,
  CreateEngine,
  Engine,
  EnginePoolOptions,
  JobResult,
  JobSpec,
  PoolLoadProgress,
  PoolStatus,
  PoolTimers,
} from './types.js';
import { validateSpec } from './validateSpec.js';
import { validatePoolOptions } from './validatePoolOptions.js';

/** A slot that dies this many times in a row without a clean job is given up. */
const MAX_CONSECUTIVE_DEATHS = 3;

const globalTimers: PoolTimers = {
  setTimeout: (callback, ms) => globalThis.setTimeout(callback, ms),
  clearTimeout: (handle) => globalThis.clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/**
 * A few engines, each a full copy of the model's weights, shared by every
 * feature of an app, and the scheduler that hands them out: priority bands,
 * session supersession, opt-in preemption and demand-driven growth.
 *
 * `submit` never rejects; errors, cancellation and preemption are fields of
 * the result. The pool is an external store (`subscribe` / `getSnapshot`).
 *
 * @example
 * const pool = new EnginePool({ createEngine: webllmEngines({ model }), size: 2 });
 * await pool.load();
 * const { text } = await pool.submit({
 *   params: { messages: [{ role: 'user', content: 'Hello' }] },
 * });
 */
export class EnginePool {
  readonly #createEngine: CreateEngine;
  readonly #maxSize: number;
  readonly #idleTimeoutMs: number;
  readonly #timers: PoolTimers;
  readonly #now: () => number;
  readonly #state: PoolState;
  readonly #notifier: Notifier;
  /** Bumped by `unload()`: an engine that arrives for an older generation is torn down. */
  #generation = 0;
  #loading: Promise<number> | null = null;
  /** Aborted by `unload()`, so loads still in flight can stop early. */
  #loadAbort = new AbortController();
  #config: Record<string, unknown> = {};
  #nextId = 0;

  constructor(options: EnginePoolOptions) {
    validatePoolOptions(options);
    this.#createEngine = options.createEngine;
    this.#maxSize = options.size ?? 2;
    this.#idleTimeoutMs = options.idleTimeoutMs ?? 60_000;
    this.#timers = options.timers ?? globalTimers;
    this.#now = options.now ?? (() => performance.now());
    this.#state = new PoolState(this.#maxSize, options.historySize ?? 50);
    this.#notifier = new Notifier(options.scheduleNotify);
    const { onStateChange } = options;
    if (onStateChange) this.#notifier.subscribe(() => onStateChange(this.getSnapshot()));
  }

  /** Engines that exist now, which is not the same as the cap. */
  get size(): number {
    return this.#state.slots.length;
  }

  /** The most engines the pool may hold. */
  get maxSize(): number {
    return this.#maxSize;
  }

  /** True once an engine is up. */
  get loaded(): boolean {
    return this.#state.slots.length > 0;
  }

  /**
   * Listens for changes; returns the function that stops listening. Changes are
   * batched: a burst of them is one call. Bound, so it can be passed around.
   */
  readonly subscribe = (listener: () => void): (() => void) => this.#notifier.subscribe(listener);

  /** The pool's state; the same object until something changes. Bound. */
  readonly getSnapshot = (): PoolStatus => this.#state.snapshot();

  /** The pool's state (the same object `getSnapshot` returns). */
  status(): PoolStatus {
    return this.getSnapshot();
  }

  /**
   * Brings up the first engine, and only the first: each engine is a full copy
   * of the weights, so the rest are earned by demand (see `submit`). Jobs
   * submitted before it is ready wait and start as soon as it is. Resolves with
   * the number of engines (0 if `unload()` ran meanwhile); rejects with an
   * `EngineLoadError` when the engine cannot be built.
   */
  load(onProgress?: (report: PoolLoadProgress) => void): Promise<number> {
    if (this.#loading) return this.#loading;
    if (this.#state.slots.length > 0) return Promise.resolve(this.#state.slots.length);

    const generation = this.#generation;
    const stale = () => generation !== this.#generation;
    this.#dispatch({ type: 'load-start' });
    const progress = (report: PoolLoadProgress) => {
      if (stale()) return;
      this.#dispatch({ type: 'load-progress', report });
      if (onProgress) guard(() => onProgress(report));
    };
    const loading = attempt(() =>
      this.#createEngine(0, (report) => progress({ ...report, engine: 1, engines: 1 }), this.#loadOptions()),
    ).then(
      (engine) => {
        // `unload()` ran while this was building: installing it would leak a
        // worker and a copy of the weights nobody holds a reference to.
        if (stale()) return unloadQuietly(engine).then(() => 0);
        this.#loading = null;
        this.#install(0, engine, true);
        return this.#state.slots.length;
      },
      (error: unknown) => {
        if (stale()) return 0;
        this.#loading = null;
        const failure = asInklingError(error, EngineLoadError, 'The model could not be loaded');
        this.#dispatch({ type: 'load-fail', error: failure });
        throw failure;
      },
    );
    this.#loading = loading;
    return loading;
  }

  /**
   * Cancels every job (they resolve with `cancelReason: 'unload'`) and unloads
   * every engine, including ones still loading. The pool can be loaded again.
   */
  async unload(): Promise<void> {
    this.#generation += 1;
    this.#loading = null;
    this.#loadAbort.abort();
    this.#loadAbort = new AbortController();
    const slots = this.#state.slots;
    for (const slot of slots) this.#clearIdleTimer(slot);
    for (const job of [...this.#state.live.values()]) {
      this.#stop(job, 'unload');
      this.#finish(job);
    }
    this.#dispatch({ type: 'reset' });
    await Promise.all(slots.map((slot) => unloadQuietly(slot.engine)));
  }

  /**
   * Queues a job and resolves with its result. Never rejects: a bad spec
   * resolves at once with an `InvalidJobError` and touches nothing else.
   *
   * A job with the `session` of a live one cancels it (supersession). An
   * `interactive` job with no free engine interrupts a running `preemptible`
   * one, which resolves with its partial text and `preempted: true`. A job of
   * a task that is not running, waiting on a busy pool, grows the pool by one
   * engine up to `maxSize`.
   *
   * @example
   * const result = await pool.submit({
   *   session: 'notes-editor',
   *   priority: 'interactive',
   *   params: { messages, max_tokens: 24 },
   *   onChunk: (chunk) => render(chunk.choices[0]?.delta.content ?? ''),
   * });
   * if (result.status === 'done') show(result.text);
   */
  submit(spec: JobSpec): Promise<JobResult> {
    const now = this.#now();
    const problem = validateSpec(spec, (id) => this.#state.live.has(id));
    const id = typeof spec?.id === 'string' && spec.id ? spec.id : `job-${++this.#nextId}`;
    if (problem) return Promise.resolve(rejected(id, problem, now));

    const job = createJob(spec, id, now);
    const { signal } = spec;
    if (signal?.aborted) {
      job.cancelReason = 'abort';
      return Promise.resolve(buildResult(job, now, undefined));
    }
    if (job.session) {
      const previous = this.#state.sessions.get(job.session);
      // Superseded, not queued behind: the keystroke that asked for it is stale.
      if (previous) this.#stop(previous, 'supersede');
    }
    if (signal) {
      const onAbort = () => {
        this.#stop(job, 'abort');
        this.#pump();
      };
      signal.addEventListener('abort', onAbort, { once: true });
      job.detach = () => signal.removeEventListener('abort', onAbort);
    }
    this.#dispatch({ type: 'queue', job });
    this.#pump();
    return job.promise;
  }

  /**
   * Cancels by job id or by session. A queued job resolves at once; a running
   * one is interrupted and resolves when its engine is free again. Returns how
   * many jobs it stopped.
   */
  cancel(idOrSession: string): number {
    let stopped = 0;
    for (const job of [...this.#state.live.values()]) {
      if (job.id !== idOrSession && job.session !== idOrSession) continue;
      if (job.cancelReason) continue;
      this.#stop(job, 'cancel');
      stopped += 1;
    }
    if (stopped) this.#pump();
    return stopped;
  }

  /**
   * Pushes a runtime setting to every engine that accepts one, and to engines
   * built later. Returns how many engines took it now.
   */
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

  // ----------------------------------------------------------------- internals

  #loadOptions(): { signal: AbortSignal } {
    return { signal: this.#loadAbort.signal };
  }

  #dispatch(action: PoolAction): void {
    this.#state.apply(action);
    this.#notifier.notify();
  }

  #pump(): void {
    const state = this.#state;
    for (let next = pickNext(state.queue, state.slots); next; next = pickNext(state.queue, state.slots)) {
      this.#start(next.slot, next.job);
    }
    // Only an interactive job takes an engine by force, and only from a job
    // that opted in. Its lane re-enters the pump when the victim settles.
    for (let n = preemptionsWanted(state.queue, state.slots, isStopping); n > 0; n -= 1) {
      const victim = pickVictim(state.slots, isStopping);
      if (!victim) break;
      this.#stop(victim, 'preempt');
    }
    this.#grow();
    this.#scheduleIdleShrink();
  }

  #start(slot: Slot, job: Job): void {
    this.#dispatch({ type: 'start', job, slot, at: this.#now() });
    const engine = slot.engine as Engine;
    const call: JobCall = {
      kind: job.kind,
      params: job.spec.params,
      signal: job.controller.signal,
      stopping: () => isStopping(job),
      interrupt: () => this.#interrupt(slot, engine),
      opened: () => this.#dispatch({ type: 'open', job }),
      chunk: (chunk) => this.#chunk(job, chunk),
      embedded: (response) => this.#dispatch({ type: 'embedded', job, response, at: this.#now() }),
    };
    runJob(engine, call).then(
      () => this.#settle(slot, engine, job, undefined),
      (error: unknown) => this.#settle(slot, engine, job, error ?? new Error('The engine failed without saying why.')),
    );
  }

  #chunk(job: Job, chunk: ChatCompletionChunk): void {
    const show = !isStopping(job);
    this.#dispatch({ type: 'chunk', job, chunk, at: this.#now() });
    // The chunk goes on verbatim: it is already a complete OpenAI envelope.
    const { onChunk } = job.spec;
    if (show && onChunk) guard(() => onChunk(chunk));
  }

  /** One engine call is over: its lane is free again. */
  #settle(slot: Slot, engine: Engine, job: Job, error: unknown): void {
    if (job.state === 'done') return; // already ended by unload() or an engine death
    if (error !== undefined && isFatalEngineError(error) && slot.engine === engine) {
      this.#engineDied(slot, error);
    } else {
      this.#finish(job, error === undefined ? undefined : asInklingError(error, EngineError, 'The engine failed on this job'));
    }
    this.#pump();
  }

  #stop(job: Job, reason: CancelReason | 'preempt'): void {
    if (job.state === 'done') return;
    const wasStopping = isStopping(job);
    this.#dispatch({ type: 'stop', job, reason });
    if (job.state === 'queued') {
      this.#finish(job);
      return;
    }
    if (wasStopping) return;
    job.controller.abort();
    // Only a generation that has started can be interrupted; one that has not
    // is closed unstarted by `runJob` (see there for why).
    const slot = this.#state.slots.find((s) => s.jobs.has(job));
    if (slot?.engine && job.streamOpen) this.#interrupt(slot, slot.engine);
  }

  /** `interruptGenerate` stops everything on an engine, so only a one-lane engine gets it. */
  #interrupt(slot: Slot, engine: Engine): void {
    if (slot.concurrency !== 1) return;
    guard(() => engine.interruptGenerate());
  }

  #finish(job: Job, error?: InklingError): void {
    if (job.state === 'done') return;
    const result = buildResult(job, this.#now(), error);
    this.#dispatch({ type: 'finish', job, result });
    job.detach();
    job.resolve(result);
  }

  #install(index: number, engine: Engine, first: boolean): void {
    if (Object.keys(this.#config).length > 0 && typeof engine.configure === 'function') {
      guard(() => engine.configure?.({ ...this.#config }));
    }
    const slot: Slot = {
      index,
      engine,
      ready: true,
      concurrency: laneCount(engine),
      jobs: new Set(),
      idleTimer: undefined,
      deaths: 0,
    };
    this.#dispatch({ type: 'slot-add', slot, first });
    this.#pump();
  }

  /**
   * An engine died: every job on it ends with the crash, and a replacement is
   * built in the same slot while queued jobs wait for it. A slot that keeps
   * dying is given up rather than fed the queue one job at a time.
   */
  #engineDied(slot: Slot, error: unknown): void {
    const crash =
      error instanceof InklingError
        ? error
        : new EngineCrashedError(
            `Engine ${slot.index + 1} stopped working (${describeError(error)}). Inkling is replacing it; try again in a moment.`,
            { cause: error },
          );
    const dead = slot.engine;
    const victims = [...slot.jobs];
    this.#clearIdleTimer(slot);
    this.#dispatch({ type: 'slot-down', slot });
    for (const job of victims) this.#finish(job, crash);
    void unloadQuietly(dead);

    if (slot.deaths >= MAX_CONSECUTIVE_DEATHS) {
      this.#retire(
        slot,
        new EngineCrashedError(
          `Engine ${slot.index + 1} crashed ${slot.deaths} times in a row, so Inkling stopped restarting it. Last error: ${describeError(error)}. Call pool.load() to try again.`,
          { cause: error },
        ),
      );
      return;
    }
    const generation = this.#generation;
    attempt(() => this.#createEngine(slot.index, () => {}, this.#loadOptions())).then(
      (engine) => {
        if (generation !== this.#generation || !this.#state.slots.includes(slot)) return unloadQuietly(engine);
        this.#dispatch({ type: 'slot-up', slot, engine });
        this.#pump();
      },
      (failure: unknown) => {
        if (generation !== this.#generation) return;
        this.#retire(slot, asInklingError(failure, EngineLoadError, 'A crashed engine could not be rebuilt'));
      },
    );
  }

  /** Drops a slot for good; with none left the pool is in error until `load()`. */
  #retire(slot: Slot, error: InklingError): void {
    this.#dispatch({ type: 'slot-remove', slot });
    if (this.#state.slots.length === 0) this.#dispatch({ type: 'load-fail', error });
    this.#pump();
  }

  /**
   * Adds one engine, only when a second one buys something: a job of another
   * task waits on a busy pool. Nothing reports free memory to a page, so the
   * pool does not predict, it probes; a failed load is the answer and is not
   * retried (until `unload()`), since a retry costs another full staging pass
   * to learn the same thing.
   */
  #grow(): void {
    const state = this.#state;
    if (state.growing || state.growthBlocked !== null || state.loading) return;
    if (state.slots.length === 0 || state.slots.length >= this.#maxSize) return;
    if (state.slots.some((s) => !s.ready)) return;
    if (!hasCrossTaskDemand(state.queue, state.slots)) return;

    const used = new Set(state.slots.map((s) => s.index));
    let index = 0;
    while (used.has(index)) index += 1;
    const generation = this.#generation;
    this.#dispatch({ type: 'grow', growing: true });
    attempt(() => this.#createEngine(index, () => {}, this.#loadOptions())).then(
      (engine) => {
        if (generation !== this.#generation) return unloadQuietly(engine);
        this.#dispatch({ type: 'grow', growing: false });
        this.#install(index, engine, false);
      },
      (error: unknown) => {
        if (generation !== this.#generation) return;
        // Almost always memory. Staying at the current size is the right
        // outcome, not an error owed to whichever job set it off.
        this.#dispatch({ type: 'grow', growing: false, blocked: describeError(error) });
        this.#pump();
      },
    );
  }

  /** Engines beyond the first are unloaded after `idleTimeoutMs` without work. */
  #scheduleIdleShrink(): void {
    const [, ...extra] = this.#state.slots;
    for (const slot of extra) {
      const idle = slot.ready && slot.jobs.size === 0;
      if (!idle) {
        this.#clearIdleTimer(slot);
      } else if (slot.idleTimer === undefined) {
        slot.idleTimer = this.#timers.setTimeout(() => {
          slot.idleTimer = undefined;
          this.#shrink(slot);
        }, this.#idleTimeoutMs);
      }
    }
  }

  #shrink(slot: Slot): void {
    const { slots } = this.#state;
    if (slots[0] === slot || !slots.includes(slot) || !slot.ready || slot.jobs.size > 0) return;
    this.#dispatch({ type: 'slot-remove', slot });
    void unloadQuietly(slot.engine);
  }

  #clearIdleTimer(slot: Slot): void {
    if (slot.idleTimer === undefined) return;
    this.#timers.clearTimeout(slot.idleTimer);
    slot.idleTimer = undefined;
  }
}

function rejected(id: string, error: InklingError, at: number): JobResult {
  return {
    id,
    status: 'error',
    text: '',
    submittedAt: at,
    finishedAt: at,
    cancelled: false,
    preempted: false,
    error,
  };
}

/** Calls `fn`, turning a synchronous throw into a rejected promise. */
function attempt<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return Promise.resolve(fn());
  } catch (error) {
    return Promise.reject(error);
  }
}

async function unloadQuietly(engine: Engine | undefined): Promise<void> {
  try {
    await engine?.unload?.();
  } catch {
    // The engine is being thrown away; a failure to tidy up changes nothing.
  }
}
