import {
  type ChatCompletionChunk,
  type EmbeddingCreateParams,
  type Priority,
  type StreamingChatCompletionRequest,
} from '@inkling/scheduler';
import { type WireError, messageMatcher } from '@inkling/scheduler/engine';
import type { WebLLMLoadProgress } from './progressMapper.js';
import type { CacheBackend, WebLLMAppConfig } from './types.js';

/**
 * The name and version of the messages between a page and its engine worker.
 * The worker answers `hello` with its own; a worker of another version is
 * refused before any model loads.
 */
export const PROTOCOL = 'inkling-webllm/3';

/** What a load asks the worker for: the model and how WebLLM should load it. */
export interface LoadSettings {
  model: string;
  /** `undefined`: WebLLM's `prebuiltAppConfig`, which only the worker holds. */
  appConfig: WebLLMAppConfig | undefined;
  cache: CacheBackend | undefined;
  engineConfig: Record<string, unknown>;
  chatOptions: Record<string, unknown> | undefined;
  /** Whether the worker checks WebGPU (an adapter, `shader-f16` for an f16 model) before WebLLM loads. */
  checkWebGPU: boolean;
  /** Whether the worker keeps the KV cache's common prefix between requests (see `PrefixReuse`). Absent: on. */
  prefixReuse?: boolean;
  /** How many generations the worker runs at once on the one model (see `Lanes`). Absent: 1. */
  lanes?: number;
}

/**
 * What the page asks its engine worker. Every message has an `id`; the
 * worker's answers carry the same `id` (a stream's `interrupt` and `close`
 * name the stream's).
 */
export type PageMessage =
  | { type: 'hello'; id: number; protocol: string }
  | ({ type: 'load'; id: number } & LoadSettings)
  /** `priority`: the job's band, when the pool said; on lanes an `interactive` job's prefill goes first. */
  | { type: 'chat'; id: number; request: StreamingChatCompletionRequest; priority?: Priority }
  | { type: 'embed'; id: number; request: EmbeddingCreateParams }
  | { type: 'interrupt'; id: number }
  | { type: 'close'; id: number }
  | { type: 'unload'; id: number }
  | StreamPull;

/** The worker's answer to `load`. */
export interface LoadAnswer {
  /** An embedding model (WebLLM's `model_type` 1): the engine offers `embeddings`. */
  embeddings: boolean;
  /** Whether prefix reuse is on in this worker. */
  prefixReuse?: boolean;
  /** Why it is off, when it is. */
  prefixReuseReason?: string;
  /** How many generations run at once (the lanes that started; 1 without lanes). Absent: 1. */
  lanes?: number;
  /** Why the lanes asked for did not start, when they did not. */
  lanesReason?: string;
}

/** What the engine worker sends back. */
export type WorkerMessage =
  | { type: 'hello'; id: number; protocol: string }
  | { type: 'progress'; id: number; report: WebLLMLoadProgress }
  | { type: 'chunk'; id: number; chunk: ChatCompletionChunk }
  | { type: 'done'; id: number; value?: unknown }
  | {
      type: 'error';
      id: number;
      /**
       * The worker has already turned WebLLM's errors into Inkling's typed ones
       * (`classifyLoadError`, `classifyRunError`): `name` is the class,
       * `fields` its own fields (`kind`, `model`, `suggestion`, `url`...) and
       * `cause` what went wrong underneath, usually WebLLM's error.
       */
      error: WireError;
    };

/** A page message without its `id`, as callers write it. */
export type PageRequest = PageMessage extends infer M ? (M extends PageMessage ? Omit<M, 'id'> : never) : never;

/**
 * Whether `data` is one of the worker's messages (and not, say, WebLLM's own
 * `{ kind, uuid }` protocol from a worker that runs WebLLM's handler).
 *
 * @example
 * if (!isWorkerMessage(event.data)) return;
 */
export const isWorkerMessage = messageMatcher<WorkerMessage>('type', ['hello', 'progress', 'chunk', 'done', 'error'], 'number');

// ---------------------------------------------------------------------------
// Pull-based streams (inkling-webllm/3). Kept apart from the codec above.
// ---------------------------------------------------------------------------

/**
 * The page asks for the next chunk of stream `id` (a `chat` request's id).
 * The worker answers with one `chunk`, or `done`/`error` at the end, and runs
 * no decode step until the next pull: the page's pace is the worker's.
 */
export interface StreamPull {
  type: 'pull';
  id: number;
}
