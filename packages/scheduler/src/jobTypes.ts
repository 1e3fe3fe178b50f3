import type { JOB_KIND, PRIORITY } from './constants.js';
import type { InklingError } from './errors.js';
import type {
  ChatCompletionChunk,
  ChatCompletionRequest,
  CompletionUsage,
  CreateEmbeddingResponse,
  Embedding,
  EmbeddingCreateParams,
  FinishReason,
  ToolCall,
  TranslationParams,
} from './wireTypes.js';

// The job contract: what `EnginePool.submit` takes (a job's kind, priority
// and spec) and what its promise resolves with.

/** One of `'interactive' | 'high' | 'normal' | 'low'`. */
export type Priority = (typeof PRIORITY)[keyof typeof PRIORITY];

/** One of `'chat' | 'embedding' | 'translation'`. */
export type JobKind = (typeof JOB_KIND)[keyof typeof JOB_KIND];

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
