import type { JobKind, Priority } from './jobTypes.js';
import type {
  ChatCompletionChunk,
  ChatCompletionRequest,
  CreateEmbeddingResponse,
  EmbeddingCreateParams,
  StreamingChatCompletionRequest,
  TranslationParams,
} from './wireTypes.js';

// The engine contract: what an engine must be for the pool to run jobs on it,
// what the pool passes with each call, and how engines are built and loaded.

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
