import { EngineCalls } from './engineCalls.js';
import { abortReasonOf } from './abortReason.js';
import { EngineError, type InklingError, asInklingError, isFatalEngineError } from './errors.js';
import { EngineSlots, unloadQuietly } from './engineSlots.js';
import { type Job, buildResult, createJob, isStopping } from './job.js';
import { NotifyScheduler } from './notifyScheduler.js';
import { markOffLane } from './offLane.js';
import { PoolState, type Slot } from './poolState.js';
import { type PoolSchedule, pickFirstCome } from './fifoPolicy.js';
import { pickNext, preemptionVictims, preemptionsWanted } from './schedulingPolicy.js';
import type {
  CancelReason,
  Engine,
  EnginePoolOptions,
  JobResult,
  JobSpec,
  Pool,
  PoolLoadProgress,
  PoolStatus,
  PoolTimers,
} from './types.js';
import { Subscribable } from './subscribable.js';
import { validateSpec } from './validateSpec.js';
import { globalTimers } from './globalTimers.js';
import {
  DEFAULT_IDLE_TIMEOUT_MS,
  DEFAULT_RESUME_DELAY_MS,
  DEFAULT_STALL_TIMEOUT_MS,
  checkSchedule,
  validatePoolOptions,
} from './validatePoolOptions.js';

/**
 * A few engines, each a full copy of the model's weights, shared by every
 * feature of an app, and the scheduler that hands them out: priority bands,
 * session supersession, opt-in preemption and demand-driven growth.
 *
 * `submit` never rejects; errors, cancellation and preemption are fields of
 * the result. The pool is an external store (`subscribe` / `getSnapshot`):
 * changes are batched, so a burst of them in one turn is one notification.
 *
 * @example
 * const pool = new EnginePool({ createEngine: webllmEngines({ model }), size: 2 });
 * await pool.load();
 * const { text } = await pool.submit({
 *   params: { messages: [{ role: 'user', content: 'Hello' }] },
 * });
 */
export class EnginePool extends Subscribable implements Pool {
  readonly #maxSize: number;
  readonly #now: () => number;
  readonly #state: PoolState;
  readonly #slots: EngineSlots;
  readonly #calls: EngineCalls;
  readonly #timers: PoolTimers;
  readonly #resumeDelayMs: number;
  /** Pumps again when the earliest held task may start. */
  #holdTimer: unknown;
  #nextId = 0;
  #schedule: PoolSchedule;

  constructor(options: EnginePoolOptions) {
    super();
    validatePoolOptions(options);
    this.#maxSize = options.size ?? 2;
    this.#now = options.now ?? (() => performance.now());
    this.#state = new PoolState(this.#maxSize, options.historySize ?? 50, new NotifyScheduler(() => this.emit(), options.scheduleNotify));
    const timers = options.timers ?? globalTimers;
    this.#timers = timers;
    this.#resumeDelayMs = options.resumeDelayMs ?? DEFAULT_RESUME_DELAY_MS;
    this.#schedule = options.schedule ?? 'priority';
    this.#slots = new EngineSlots(this.#state, {
      createEngine: options.createEngine,
      maxSize: this.#maxSize,
      idleTimeoutMs: options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS,
      growWhenLanesFull: options.growWhenLanesFull === true,
      timers,
    });
    this.#calls = new EngineCalls(this.#state, this.#now, timers, options.stallTimeoutMs ?? DEFAULT_STALL_TIMEOUT_MS, (slot, engine) =>
      this.#stalled(slot, engine),
    );
    const { onStateChange } = options;
    if (onStateChange) this.subscribe(() => onStateChange(this.getSnapshot()));
  }

  /** The pool's state; the same object until something changes. Bound. */
  readonly getSnapshot = (): PoolStatus => this.#state.snapshot();

  /**
   * Brings up the first engine, and only the first: each engine is a full copy
   * of the weights, so the rest are earned by demand (see `submit`). Jobs
   * submitted before it is ready wait and start as soon as it is. Resolves with
   * the number of engines (0 if `unload()` ran meanwhile); rejects with an
   * `EngineLoadError` (also the snapshot's `error`, with `phase: 'error'`)
   * when the engine cannot be built, `createEngine` resolves something that
   * is not an engine, or setting the engine up throws. Then every queued job
   * ends at once with that error (`status: 'error'`), and so does every job
   * submitted until the next `load()`: nothing waits on a model that is not
   * coming. A call while a load is
   * in flight joins it: the same promise, and its `onProgress` hears the
   * latest report at once, then every later one (two components showing one
   * download both move).
   *
   * @example
   * await pool.load((report) => console.log(report.text));
   */
  load(onProgress?: (report: PoolLoadProgress) => void): Promise<number> {
    const loading = this.#slots.load(onProgress);
    // Attached before the caller's own handlers, so queued jobs start (or,
    // after a failure, end with it) before the caller hears.
    const pump = () => this.#pump();
    loading.then(pump, pump);
    return loading;
  }

  /**
   * Cancels every job (they resolve at once with `cancelReason: 'unload'`) and
   * unloads every engine, including ones still loading. The pool can be loaded
   * again.
   *
   * @example
   * await pool.unload(); // e.g. before switching to another model
   */
  async unload(): Promise<void> {
    const slots = this.#slots.detachAll();
    for (const job of [...this.#state.live.values()]) {
      this.#stop(job, 'unload');
      this.#finish(job);
    }
    this.#calls.unwatchAll();
    if (this.#holdTimer !== undefined) this.#timers.clearTimeout(this.#holdTimer);
    this.#holdTimer = undefined;
    this.#state.dispatch({ type: 'reset' });
    await Promise.all(slots.map((slot) => unloadQuietly(slot.engine)));
  }

  /**
   * Queues a job and resolves with its result. Never rejects: a bad spec
   * resolves at once with an `InvalidJobError` and touches nothing else.
   * Cancelling it (`cancel`, its `signal`, a newer job of its session,
   * `unload`) resolves it at once, whatever its engine does.
   *
   * A job with the `session` of a live one cancels it (supersession). An
   * `interactive` job with no free engine interrupts a running `preemptible`
   * one, which resolves with its partial text and `status: 'preempted'` once its
   * engine has stopped (or been taken for dead after `stallTimeoutMs`). A job of
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
    // Refused: a job that never ran.
    if (problem) return Promise.resolve(buildResult(createJob({} as JobSpec, id, now), now, problem));

    const job = createJob(spec, id, now);
    const { signal } = spec;
    if (signal?.aborted) {
      job.cancelReason = abortReasonOf(signal);
      return Promise.resolve(buildResult(job, now, undefined));
    }
    if (job.session) {
      const previous = this.#state.sessions.get(job.session);
      // Superseded, not queued behind: the keystroke that asked for it is stale.
      if (previous) this.#stop(previous, 'supersede');
    }
    if (signal) {
      const onAbort = () => {
        this.#stop(job, abortReasonOf(signal));
        this.#pump();
      };
      signal.addEventListener('abort', onAbort, { once: true });
      job.detach = () => signal.removeEventListener('abort', onAbort);
    }
    this.#state.dispatch({ type: 'queue', job });
    this.#pump();
    return job.promise;
  }

  /**
   * Cancels by job id or by session; returns how many jobs it stopped. Each
   * resolves at once with `status: 'cancelled'` and the text streamed so far.
   * A running job's engine is told to stop and keeps its lane until it
   * answers; one that stays silent for `stallTimeoutMs` is replaced. An absent
   * key (`undefined`, `null`, `''`: an optional session that was not set)
   * cancels nothing.
   *
   * @example
   * pool.cancel('notes-editor'); // every live job of that session
   * pool.cancel(props.session); // 0 when no session was given
   */
  cancel(idOrSession: string | null | undefined): number {
    if (typeof idOrSession !== 'string' || idOrSession === '') return 0;
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
   *
   * @example
   * pool.configure({ decodeSteps: 4 });
   */
  configure(patch: Record<string, unknown>): number {
    return this.#slots.configure(patch);
  }

  /** How queued work is ordered now: `'priority'` (the default) or `'fifo'` (see `setSchedule`). */
  get schedule(): PoolSchedule {
    return this.#schedule;
  }

  /**
   * Switches how queued work is ordered, for the jobs queued now and later:
   * `'priority'` (bands, preemption) or `'fifo'` (arrival order only, nothing
   * preempted), to compare the two. Running jobs are left alone. Throws an
   * `InvalidOptionError` for any other value.
   *
   * @example
   * pool.setSchedule('fifo'); // a keystroke now waits behind the batch
   */
  setSchedule(schedule: PoolSchedule): void {
    checkSchedule(schedule, 'EnginePool.setSchedule()');
    this.#schedule = schedule;
    this.#pump();
  }

  // ----------------------------------------------------------------- internals

  #pump(): void {
    const state = this.#state;
    if (this.#failQueued()) return;
    this.#releaseHolds();
    markOffLane(state.queue.heads(), state.slots);
    this.#startPicked();
    // Only an interactive job takes an engine by force, and only from a job
    // that opted in. On a one-lane engine its lane re-enters the pump when the
    // victim settles; on an engine of several lanes it is handed over now
    // (see `handedLanes` in the policy), so the interactive job starts in this pump.
    const wanted = this.#schedule === 'fifo' ? 0 : preemptionsWanted(state.queue, state.slots, isStopping);
    if (wanted > 0) {
      for (const victim of preemptionVictims(state.slots, isStopping).slice(0, wanted)) this.#stop(victim, 'preempt');
      this.#startPicked();
    }
    this.#slots.grow()?.then(() => this.#pump());
    this.#slots.scheduleIdleShrink();
  }

  /** Starts every queued job that may start now. */
  #startPicked(): void {
    const state = this.#state;
    const pick = this.#schedule === 'fifo' ? pickFirstCome : pickNext;
    for (let next = pick(state.queue, state.slots); next; next = pick(state.queue, state.slots)) {
      const { slot, job } = next;
      const engine = slot.engine as Engine;
      // Every engine call ends here, in `#callEnded`.
      this.#calls.start(slot, job).then(
        () => this.#callEnded(slot, engine, job, undefined),
        (error: unknown) => this.#callEnded(slot, engine, job, error ?? 'it gave no reason'),
      );
    }
  }

  /**
   * With no engine, no load in flight and the last load failed (or the last
   * engine given up), every queued job ends with that load's error: it would
   * wait for a `load()` that nobody may call. Returns whether the pool is in
   * that state (there is then nothing else to pump).
   */
  #failQueued(): boolean {
    const state = this.#state;
    const failure = state.loadError;
    if (!failure || state.loading || state.slots.length > 0) return false;
    for (const job of state.queue.all()) this.#finish(job, failure);
    return true;
  }

  /**
   * Asks a job to stop. A queued one simply ends. A running one is told to
   * stop and watched; unless it is being preempted (its lane goes to the
   * interactive job as soon as the engine answers) it resolves now, its lane
   * held until the engine answers: the caller is never held hostage.
   */
  #stop(job: Job, reason: CancelReason | 'preempt'): void {
    if (job.state === 'done') return;
    const wasStopping = isStopping(job);
    this.#state.dispatch({ type: 'stop', job, reason });
    if (job.state === 'queued') {
      this.#finish(job);
      return;
    }
    const slot = this.#state.slots.find((s) => s.jobs.has(job));
    if (reason !== 'preempt' && slot) {
      this.#state.dispatch({ type: 'drain', job, slot });
      this.#finish(job);
    }
    if (!wasStopping && slot) this.#calls.halt(job, slot);
  }

  /**
   * Lets held tasks start again on engines where interactive work has paused
   * for `resumeDelayMs` (none queued, none on the engine), and wakes the pump
   * when the next hold ends.
   */
  #releaseHolds(): void {
    const now = this.#now();
    const waiting = this.#state.queue.count('interactive') > 0;
    let wake = Infinity;
    for (const slot of this.#state.slots) {
      if (slot.heldTasks.size === 0) continue;
      if (waiting || [...slot.jobs, ...slot.draining].some((job) => job.priority === 'interactive')) continue;
      if (now >= slot.heldUntil) slot.heldTasks.clear();
      else wake = Math.min(wake, slot.heldUntil);
    }
    if (this.#holdTimer !== undefined) this.#timers.clearTimeout(this.#holdTimer);
    this.#holdTimer = undefined;
    if (wake === Infinity) return;
    this.#holdTimer = this.#timers.setTimeout(() => {
      this.#holdTimer = undefined;
      this.#pump();
    }, wake - now);
  }

  /** One engine call is over: its lane is free again. */
  #callEnded(slot: Slot, engine: Engine, job: Job, error: unknown): void {
    if (slot.draining.has(job)) this.#state.dispatch({ type: 'drained', job, slot });
    if (this.#resumeDelayMs > 0 && slot.concurrency === 1) {
      // A preempted batch waits here while the person's work goes on (EnginePoolOptions.resumeDelayMs).
      if (job.preempting) slot.heldTasks.add(job.task);
      if (job.priority === 'interactive') slot.heldUntil = this.#now() + this.#resumeDelayMs;
    }
    const current = slot.engine === engine && this.#state.slots.includes(slot);
    if (error !== undefined && isFatalEngineError(error) && current) {
      this.#died(slot, error);
    } else if (job.state !== 'done') {
      this.#finish(job, error === undefined ? undefined : asInklingError(error, EngineError, 'The engine failed on this job'));
    }
    this.#pump();
  }

  /** An engine asked to stop has been silent for `stallTimeoutMs`: it is dead, and is replaced like a crashed one. */
  #stalled(slot: Slot, engine: Engine): void {
    if (slot.engine !== engine || !this.#state.slots.includes(slot)) return;
    this.#died(slot, this.#calls.stalledError(slot));
    this.#pump();
  }

  /** An engine died: its jobs end with the crash and its slot is rebuilt. The caller pumps. */
  #died(slot: Slot, error: unknown): void {
    const dead = slot.engine;
    const { victims, crash } = this.#slots.takeDown(slot, error);
    for (const job of victims) this.#finish(job, crash);
    this.#slots.rebuild(slot, dead, error)?.then(() => this.#pump());
  }

  #finish(job: Job, error?: InklingError): void {
    if (job.state === 'done') return;
    const result = buildResult(job, this.#now(), error);
    this.#state.dispatch({ type: 'finish', job, result });
    job.detach();
    job.resolve(result);
  }
}
