import type { JOB_KIND, PRIORITY } from './constants.js';
import type { InklingError } from './errors.js';
import type { JsonSchema } from './jsonSchemaTypes.js';

/** One of `'interactive' | 'high' | 'normal' | 'low'`. */
export type Priority = (typeof PRIORITY)[keyof typeof PRIORITY];

/** One of `'chat' | 'embedding' | 'translation'`. */
export type JobKind = (typeof JOB_KIND)[keyof typeof JOB_KIND];

// --------------------------------------------------------------- wire shapes --
// The OpenAI-shaped subset WebLLM speaks. Declared here, structurally, so the
// scheduler depends on nothing; WebLLM's own types are assignable to these.

/** A chat message in OpenAI's shape. */
export interface ChatMessage {
  role: 'system' | 'user' | 'assistant' | 'tool';
  content: string | null | ReadonlyArray<unknown>;
  [extra: string]: unknown;
}

/**
 * The parameters of a chat job, passed to the engine as they are (the pool adds
 * `stream: true` and asks for usage).
 */
export interface ChatCompletionRequest {
  messages: ChatMessage[];
  max_tokens?: number | null;
  temperature?: number | null;
  top_p?: number | null;
  stop?: string | string[] | null;
  seed?: number | null;
  logit_bias?: Record<string, number> | null;
  /**
   * What shape the answer must take. `json_schema` (OpenAI's shape) is the
   * portable one: every engine of the kit maps its schema onto its own
   * constrained decoding, or ends the job with `UnsupportedConstraintError`
   * before any token. `json_object` with a `schema` string is WebLLM's shape.
   */
  response_format?: ResponseFormat;
  [extra: string]: unknown;
}

/** The `response_format` of a chat request. */
export type ResponseFormat =
  | { type: 'text' }
  | { type: 'json_object'; schema?: string }
  | {
      type: 'json_schema';
      json_schema: { name?: string; description?: string; schema: JsonSchema; strict?: boolean | null };
    };

/** What the pool actually sends to `chat.completions.create`. */
export type StreamingChatCompletionRequest = ChatCompletionRequest & {
  stream: true;
  stream_options?: { include_usage?: boolean };
};

/** Why a generation ended, as WebLLM reports it. */
export type FinishReason = 'stop' | 'length' | 'abort' | 'tool_calls';

/** A tool call, complete (WebLLM emits them whole in the last chunk). */
export interface ToolCall {
  id?: string;
  type?: 'function';
  function: { name: string; arguments: string };
  [extra: string]: unknown;
}

/** Token counts; WebLLM adds timings under `extra`. */
export interface CompletionUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  /**
   * Prompt tokens the engine did not have to read again because its cache
   * already held them (llama.cpp's `timings.cache_n`, OpenAI's
   * `prompt_tokens_details.cached_tokens`, WebLLM's kept prefix). Absent when
   * the engine does not know.
   */
  cachedTokens?: number;
  extra?: Record<string, unknown>;
}

/** One streamed chunk in OpenAI's shape. The pool forwards it untouched. */
export interface ChatCompletionChunk {
  id: string;
  object?: 'chat.completion.chunk';
  created?: number;
  model?: string;
  choices: Array<{
    index?: number;
    delta: { content?: string | null; role?: string; tool_calls?: ToolCall[] };
    finish_reason: FinishReason | null;
    logprobs?: unknown;
  }>;
  usage?: CompletionUsage;
  [extra: string]: unknown;
}

/** The parameters of an embedding job. */
export interface EmbeddingCreateParams {
  input: string | string[] | number[] | number[][];
  model?: string | null;
  [extra: string]: unknown;
}

/** One vector of an embedding response. */
export interface Embedding {
  embedding: number[];
  index: number;
  object?: 'embedding';
}

/** An embedding response in OpenAI's shape. */
export interface CreateEmbeddingResponse {
  data: Embedding[];
  model?: string;
  object?: 'list';
  usage?: { prompt_tokens: number; total_tokens: number; extra?: Record<string, unknown> };
}

/**
 * The parameters of a translation job.
 *
 * @example
 * pool.submit({ kind: 'translation', params: { text: 'Good morning', from: 'en', to: 'fr' } });
 */
export interface TranslationParams {
  /** The text to translate. */
  text: string;
  /**
   * Target language: a BCP 47 code (`'fr'`). A chat engine also takes a name
   * (`'French'`); a native translator (Chrome's Translator API) needs a code.
   */
  to: string;
  /** Source language, the same way. Default: the engine works it out (a detector, or the model). */
  from?: string;
}

/**
 * Who a call is for, as the scheduler knows it. Engines may ignore it; it is
 * what lets an engine keep a cache per session (a KV prefix, a cloned browser
 * session, a server slot) or tell a server how urgent a request is.
 *
 * @example
 * create(request, { signal, job }) {
 *   const slot = job?.session === undefined ? undefined : slotFor(job.session);
 * }
 */
export interface JobIdentity {
  /** The job's id (the pool's or the one given at submit). */
  readonly id: string;
  readonly kind: JobKind;
  /** The unit that owns an engine (`JobSpec.task`, else the session, else the id). */
  readonly task: string;
  /** The job's session, when it has one: a later job of it supersedes this one. */
  readonly session: string | undefined;
  readonly priority: Priority;
  /** Whether an interactive job may interrupt it. */
  readonly preemptible: boolean;
  /** Who submitted it (`JobSpec.owner`, e.g. a shared pool's tab). */
  readonly owner: string | undefined;
}

/** Options the pool passes with every engine call. */
export interface EngineCallOptions {
  /**
   * Aborted when the pool wants this one call to stop. Engines that run one
   * generation at a time may ignore it (the pool also calls `interruptGenerate`);
   * engines that run several at once must honour it.
   */
  signal?: AbortSignal;
  /** The job this call runs. Always set by the pool; absent when called by hand. */
  job?: JobIdentity;
}

// ------------------------------------------------------------------ engines --

/**
 * Anything shaped like the part of WebLLM's `MLCEngineInterface` the pool uses.
 * `@inkling/webllm`, `@inkling/openai` and `@inkling/scheduler/testing` make them.
 */
export interface Engine {
  chat: {
    completions: {
      create(request: StreamingChatCompletionRequest, options?: EngineCallOptions): Promise<AsyncIterable<ChatCompletionChunk>>;
    };
  };
  embeddings?: {
    create(request: EmbeddingCreateParams, options?: EngineCallOptions): Promise<CreateEmbeddingResponse>;
  };
  /**
   * Translation done natively (Chrome's Translator API), streamed as chat
   * chunks whose content is the translation. Without it the pool runs a
   * translation job as a chat on `translationRequest(params)`.
   */
  translation?: {
    create(params: TranslationParams, options?: EngineCallOptions): Promise<AsyncIterable<ChatCompletionChunk>>;
  };
  /** Stops the generation running now, between two decode steps. */
  interruptGenerate(): void;
  /** Frees the engine's weights and worker. */
  unload?(): Promise<void>;
  /** Applies a runtime setting without reloading the model. */
  configure?(patch: Record<string, unknown>): void;
  /**
   * How many jobs the engine runs at once. Default `1` (a WebLLM engine runs one
   * generation at a time); a server-backed engine may take more.
   */
  readonly concurrency?: number;
  /**
   * The hardware the engine computes on, when other engines of the pool may
   * share it: every WebLLM engine of a page says `'webgpu'` (one GPU). While
   * an interactive job on such an engine waits for its first token, jobs of
   * other priorities on engines of the same `device` take no further step
   * (each finishes the step already running, then waits, never more than
   * 250 ms), so a keystroke's prefill has the device to itself.
   * Unset: the engine shares nothing with the others (a server, a CPU engine
   * in its own worker).
   */
  readonly device?: string;
  /**
   * For an engine of several lanes: why `request` would run beside the lanes
   * rather than on one (WebLLM's own one-sequence path takes a JSON schema or
   * tools), or `undefined` when a lane takes it. The pool runs one such job at
   * a time on the engine; a second one waiting is what grows the pool by
   * another engine (see `EnginePoolOptions.growWhenLanesFull`). Asked once per
   * job, before it starts. Unset: every request runs on a lane.
   *
   * @example
   * offLane: (request) => (request.tools ? 'tools' : undefined),
   */
  offLane?(request: ChatCompletionRequest): string | undefined;
}

/** A load progress report, as WebLLM's `InitProgressReport` gives it. */
export interface LoadProgress {
  /** 0..1 */
  progress: number;
  /** What is happening, in words. */
  text: string;
  timeElapsed?: number;
  [extra: string]: unknown;
}

/** A load progress report as the pool passes it on, with which engine it is. */
export interface PoolLoadProgress extends LoadProgress {
  /** 1-based number of the engine loading. */
  engine: number;
  /** Engines being loaded in this step. */
  engines: number;
}

/** What the pool passes to `createEngine` besides the index and progress callback. */
export interface CreateEngineOptions {
  /**
   * Aborted when `unload()` runs while this engine is still loading. An engine
   * that can stop its load early should (a model download, a worker already
   * holding part of the weights); the pool tears down whatever still arrives.
   */
  signal: AbortSignal;
}

/**
 * Builds engine number `index`. Rejecting is how an engine says it cannot load
 * (the pool records it; a failed growth is not retried until `unload()`).
 * Resolving something that is not an `Engine` (no `chat.completions.create`
 * or `interruptGenerate` function), or an engine whose `concurrency` or
 * `configure` throws when the pool sets it up, counts as a failed load with
 * an `EngineLoadError` that says what was wrong.
 *
 * @example
 * const createEngine: CreateEngine = async (index, onProgress, { signal } = {}) =>
 *   buildMyEngine({ index, onProgress, signal });
 */
export type CreateEngine = (index: number, onProgress: (report: LoadProgress) => void, options?: CreateEngineOptions) => Promise<Engine>;

// --------------------------------------------------------------------- jobs --

interface JobSpecBase {
  /** Your id for the job; must not equal a live job's. Default: a generated one. */
  id?: string;
  /**
   * The unit that owns an engine: every item of one batch shares it. A task
   * holds at most one engine (interactive jobs excepted). Default: `session`,
   * else the job's id.
   */
  task?: string;
  /**
   * A later job with the same session cancels this one. A session's jobs also
   * go back to the engine that ran its last one when it has a free lane, so
   * an engine's prefix cache keeps serving it. Default: none.
   */
  session?: string;
  /** Default `'normal'`. */
  priority?: Priority;
  /** May be interrupted by an interactive job when no engine is free. Default `false`. */
  preemptible?: boolean;
  /** Cancels the job like `cancel(id)` when aborted: it resolves at once. Default: none. */
  signal?: AbortSignal;
  /**
   * Who submitted the job, as a label the snapshot shows (`JobInfo.owner`).
   * Within a band, jobs of different owners take turns (the owner holding
   * the fewest lanes first, then the one that started a job longest ago);
   * one owner's jobs keep their order. A shared pool sets it to the tab's
   * id. Default: none (every job one owner's: plain FIFO).
   */
  owner?: string;
}

/** A chat job: a streamed completion. */
export interface ChatJobSpec extends JobSpecBase {
  /** Default `'chat'`. */
  kind?: 'chat';
  /** Passed to `engine.chat.completions.create` as they are. */
  params: ChatCompletionRequest;
  /** Called with each chunk the engine streams, verbatim, until the job is cancelled. */
  onChunk?: (chunk: ChatCompletionChunk) => void;
}

/** An embedding job: one request, one response. */
export interface EmbeddingJobSpec extends JobSpecBase {
  kind: 'embedding';
  /** Passed to `engine.embeddings.create` as they are. */
  params: EmbeddingCreateParams;
  onChunk?: undefined;
}

/**
 * A translation job: streamed like a chat. An engine with `translation` runs
 * it as it is; any other engine gets the chat prompt of `translationRequest`.
 * Preemptible, cancellable and superseded like a chat.
 *
 * @example
 * const spec: TranslationJobSpec = { kind: 'translation', task: 'page', preemptible: true, params: { text: 'Hello', to: 'fr' } };
 * const { text } = await pool.submit(spec);
 */
export interface TranslationJobSpec extends JobSpecBase {
  kind: 'translation';
  params: TranslationParams;
  /** Called with each chunk the engine streams, verbatim, until the job is cancelled. */
  onChunk?: (chunk: ChatCompletionChunk) => void;
}

/** What `EnginePool.submit` takes. */
export type JobSpec = ChatJobSpec | EmbeddingJobSpec | TranslationJobSpec;

/** How a job ended. */
export type JobStatus = 'done' | 'cancelled' | 'preempted' | 'error';

/** Who cancelled a job. */
export type CancelReason = 'cancel' | 'abort' | 'supersede' | 'unload';

/**
 * What a job's promise resolves with. It never rejects: errors, cancellation
 * and preemption are fields.
 */
export interface JobResult {
  id: string;
  status: JobStatus;
  /** Everything streamed before the job ended (partial when cancelled or preempted). */
  text: string;
  /**
   * The engine's token counts. Usually absent when the job was cancelled while
   * running: it settles at once, before the engine reports them.
   */
  usage?: CompletionUsage | CreateEmbeddingResponse['usage'];
  embeddings?: Embedding[];
  toolCalls?: ToolCall[];
  /** WebLLM's reason; `'abort'` whenever the job was cancelled or preempted. */
  finishReason?: FinishReason;
  /** The engine that ran it; absent when it never ran. */
  engineIndex?: number;
  submittedAt: number;
  startedAt?: number;
  firstTokenAt?: number;
  finishedAt: number;
  /** Why it was cancelled; set only when `status` is `'cancelled'`. */
  cancelReason?: CancelReason;
  /** Set only when `status` is `'error'`. */
  error?: InklingError;
}

// ------------------------------------------------------------------ snapshot --

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
