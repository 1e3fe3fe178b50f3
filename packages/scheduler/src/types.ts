import type { InklingError } from './errors.js';
import type { CreateEngine, PoolLoadProgress } from './engineTypes.js';
import type { CancelReason, JobKind, JobResult, JobSpec, JobStatus, Priority } from './jobTypes.js';

// The pool's contract, by audience: the OpenAI-shaped wire (wireTypes.ts),
// what a job is and how it ends (jobTypes.ts), what an engine must be
// (engineTypes.ts), and here the pool itself: its snapshot and options.
// Every name is re-exported from here, so `./types.js` still names them all.
export type {
  ChatMessage,
  ChatCompletionRequest,
  ResponseFormat,
  StreamingChatCompletionRequest,
  FinishReason,
  ToolCall,
  CompletionUsage,
  ChatCompletionChunk,
  EmbeddingCreateParams,
  Embedding,
  CreateEmbeddingResponse,
  TranslationParams,
} from './wireTypes.js';
export type {
  ChatJobSpec,
  EmbeddingJobSpec,
  TranslationJobSpec,
  JobSpec,
  JobStatus,
  CancelReason,
  JobResult,
  Priority,
  JobKind,
} from './jobTypes.js';
export type {
  JobIdentity,
  EngineCallOptions,
  Engine,
  LoadProgress,
  PoolLoadProgress,
  CreateEngineOptions,
  CreateEngine,
} from './engineTypes.js';

// --------------------------------------------------------------- snapshot --

/** Where the pool's first engine is. */
export type PoolPhase = 'idle' | 'loading' | 'ready' | 'error';

/** A live job, as the snapshot shows it. */
export interface JobInfo {
  readonly id: string;
  readonly task: string;
  readonly session: string | undefined;
  readonly priority: Priority;
  readonly kind: JobKind;
  readonly preemptible: boolean;
  /**
   * `cancelling`: being preempted, waiting for its engine to stop (at most
   * `stallTimeoutMs` of silence). Cancelled jobs never show it: they settle at
   * once and leave the list (see `EngineInfo`).
   */
  readonly state: 'queued' | 'running' | 'cancelling';
  readonly engineIndex: number | undefined;
  readonly submittedAt: number;
  readonly startedAt: number | undefined;
  readonly firstTokenAt: number | undefined;
  /** Content chunks streamed so far (about one per token). */
  readonly tokens: number;
  /** The spec's `owner` (which tab a shared pool's job came from); absent when it had none. */
  readonly owner?: string;
}

/** A finished job, as the snapshot's history keeps it. */
export interface JobRecord extends Omit<JobInfo, 'state'> {
  readonly status: JobStatus;
  readonly cancelReason: CancelReason | undefined;
  readonly finishedAt: number;
  readonly error: string | undefined;
  /** The engine's `usage.cachedTokens` for it; absent when the engine did not say. */
  readonly cachedTokens?: number;
}

/**
 * One engine, as the snapshot shows it.
 *
 * A job that was cancelled (by `cancel`, its signal, a newer job of its
 * session or `unload`) resolves at once, but its engine keeps working until it
 * answers the stop, usually within a decode step. Until then the job is
 * *draining*: it has left `PoolStatus.jobs` (it is in `recent`, settled), yet
 * it still takes a lane, so its id stays in `jobs` here and the engine stays
 * `'busy'`. A draining job is no task's work any more: it does not keep its
 * task on this engine, nor stop that task's next job from starting elsewhere.
 */
export interface EngineInfo {
  readonly index: number;
  /** `busy`: at least one lane is taken. `restarting`: it died and a replacement is loading. */
  readonly state: 'idle' | 'busy' | 'restarting';
  readonly concurrency: number;
  /**
   * Ids of the jobs on its lanes: running ones, then draining ones (those
   * not found in `PoolStatus.jobs`). On an engine of several lanes this may
   * briefly be one more per preemption than `concurrency`: the preempted job
   * until its lane stops, and the interactive job it was handed to.
   */
  readonly jobs: readonly string[];
}

/**
 * The pool's state. `getSnapshot()` returns the same object until something
 * changes, so it can be compared with `Object.is`.
 */
export interface PoolStatus {
  readonly phase: PoolPhase;
  /** The first engine's load progress while `phase` is `'loading'`. */
  readonly loadProgress: PoolLoadProgress | null;
  /** Why `phase` is `'error'`. */
  readonly error: InklingError | null;
  /** Engines that exist now (restarting ones included). */
  readonly size: number;
  readonly maxSize: number;
  /** An engine beyond the first is loading. */
  readonly growing: boolean;
  /** Why the pool stopped growing; `null` while it may still grow. */
  readonly growthBlocked: string | null;
  /** Engines with at least one lane taken (by a running or a draining job). */
  readonly busy: number;
  /** Jobs running now (draining ones, already settled, are not counted). */
  readonly running: number;
  readonly queued: number;
  readonly queuedByPriority: Readonly<Record<Priority, number>>;
  readonly engines: readonly EngineInfo[];
  /** Live jobs: running ones by engine, then queued ones in the order they will start. */
  readonly jobs: readonly JobInfo[];
  /** The most recently finished jobs, oldest first. */
  readonly recent: readonly JobRecord[];
}

/**
 * What the provider and hooks use of a pool: `EnginePool` in the page, or a
 * client of a pool hosted elsewhere (`PoolClient` of `@inkling/shared-pool`:
 * a SharedWorker, another tab, an extension's offscreen document). The
 * methods mean what `EnginePool`'s do; `subscribe` and `getSnapshot` are
 * bound.
 *
 * @example
 * function countLive(pool: Pool): number {
 *   return pool.getSnapshot().jobs.length;
 * }
 */
export interface Pool {
  /** Queues a job; resolves with its result, never rejects. */
  submit(spec: JobSpec): Promise<JobResult>;
  /** Cancels by job id or session; returns how many (of this caller's) live jobs it matched. */
  cancel(idOrSession: string | null | undefined): number;
  /** Listens for changes; returns the function that stops listening. */
  subscribe(listener: () => void): () => void;
  /** The pool's state; the same object until something changes. */
  getSnapshot(): PoolStatus;
  /** Loads the first engine; resolves with the number of engines. */
  load(onProgress?: (report: PoolLoadProgress) => void): Promise<number>;
  /** Cancels every job and unloads every engine. */
  unload(): Promise<void>;
  /** Pushes a runtime setting to the engines; returns how many took it. */
  configure(patch: Record<string, unknown>): number;
}

/** Timers the pool uses, injectable for tests. */
export interface PoolTimers {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** Options of `new EnginePool(...)`. */
export interface EnginePoolOptions {
  /** Builds engines. Required. */
  createEngine: CreateEngine;
  /** The most engines the pool may hold, 1..4. Default `2`. */
  size?: number;
  /**
   * Whether a pool of engines with several lanes grows another engine (a
   * second copy of the weights) when a job of another task finds every lane
   * taken, as a pool of one-lane engines does. Default `false`: such a pool
   * grows lanes, not engines. The job waits for the next lane given back
   * (the last free lane of each engine is kept for `interactive` work), and
   * only a job no lane can take (see `Engine.offLane`) while every engine
   * already runs one grows the pool.
   */
  growWhenLanesFull?: boolean;
  /**
   * Called with the snapshot after changes, batched like `subscribe`.
   * Default: none.
   */
  onStateChange?: (status: PoolStatus) => void;
  /**
   * Engines beyond the first are unloaded after this long without work, in
   * milliseconds: 0 to 2^31-1, or `Infinity` to never shrink. Default `60_000`.
   */
  idleTimeoutMs?: number;
  /**
   * How long an engine that was asked to stop a job (cancel, supersession,
   * preemption, abort) may then stay silent, in milliseconds, before it is
   * taken for dead and replaced like a crashed one (its jobs end with an
   * `EngineStalledError`). Any chunk counts as a sign of life and restarts the
   * clock. 0 to 2^31-1, or `Infinity` to wait for ever. Default `10_000`.
   *
   * The caller never waits for this: a cancelled job resolves at once. What
   * waits is the engine's lane, and the jobs queued for it. 10 s because a
   * healthy WebLLM engine may be silent for seconds after a stop: prefill
   * never checks the interrupt flag, and a long prompt on a laptop GPU takes
   * seconds to prefill (0.3-0.6 ms a token measured on an H200, several times
   * that on an integrated GPU), and an embedding call cannot be interrupted at
   * all. Taking a healthy engine for dead costs a full reload of the weights,
   * while a truly wedged one is rare, so the bound errs long. Raise it for
   * long prompts or large embedding batches on slow devices.
   */
  stallTimeoutMs?: number;
  /**
   * How long a preempted task waits before it starts again on the engine
   * that preempted it, in milliseconds, counted from the end of the last
   * `interactive` job there: 0 to 2^31-1; 0 restarts it at once. Default
   * `1000`. Applies to one-lane engines (WebLLM, wllama), not to servers.
   *
   * While a person types, each keystroke's job then finds the engine free
   * and its prompt's start still in the engine's cache, instead of waiting
   * for a restarted batch item's prefill and then reading its whole prompt
   * again (on an H200 with a pool of one: 250 ms to the first ghost-text
   * token without the wait, the idle figure with it). The batch resumes once
   * interactive work has paused this long; an item restarted sooner would
   * have been preempted again by the next keystroke.
   */
  resumeDelayMs?: number;
  /**
   * How queued work is ordered: `'priority'` (bands `interactive > high >
   * normal > low`, preemption, one engine per task) or `'fifo'` (arrival order
   * across every lane, nothing preempted: a pool without its scheduler, to
   * compare against). Switch later with `EnginePool.setSchedule`. Default
   * `'priority'`.
   */
  schedule?: PoolSchedule;
  /** Finished jobs kept in the snapshot's `recent`. Default `50`. */
  historySize?: number;
  /**
   * Timers for idle shrink and the stall watchdog: an object with
   * `setTimeout` and `clearTimeout` functions, checked when the pool is built.
   * Default: the global `setTimeout` / `clearTimeout`, looked up when used.
   */
  timers?: PoolTimers;
  /** Clock for job timings, in milliseconds. Default `performance.now`. */
  now?: () => number;
  /**
   * Schedules the flush of batched notifications. Default: a microtask, so a
   * burst of changes in one turn is one notification.
   */
  scheduleNotify?: (flush: () => void) => void;
}

/** How the pool orders queued work: `'priority'` (bands, preemption; the default) or `'fifo'` (arrival order only). */
export type PoolSchedule = 'priority' | 'fifo';
