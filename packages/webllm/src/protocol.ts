import {
  type ChatCompletionChunk,
  type EmbeddingCreateParams,
  type Priority,
  type StreamingChatCompletionRequest,
} from '@inkling/scheduler';
import { type CallMessage, type CallProgress, type CallReply, isCallAnswer } from '@inkling/scheduler/engine';
import type { CacheBackend, WebLLMAppConfig } from './types.js';

/**
 * The name and version of the messages between a page and its engine worker.
 * The worker answers `hello` with its own; a worker of another version is
 * refused before any model loads. `/4`: requests and answers are the engine
 * kit's calls (`CallMessage`, `CallReply`, `CallProgress`), streams are
 * named by their call's `rid`.
 */
export const PROTOCOL = 'inkling-webllm/4';

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
  /**
   * How many jobs of any band the worker runs at once on the one model (see
   * `Lanes`); above 1 it opens one sequence more, kept for interactive work.
   * Absent: 1.
   */
  lanes?: number;
}

/**
 * The version handshake, the same in every version of the protocol (so a
 * page and a worker of different versions still understand each other's
 * `hello`, and the page refuses the worker): the page sends it, the worker
 * answers with its own `protocol` and the same `id`.
 */
export interface Hello {
  type: 'hello';
  id: number;
  protocol: string;
}

/** What each call carries as its `input`, and what its reply's `value` is. */
export interface WorkerCalls {
  /** Loads the model; progress reports come first (`CallProgress`), the reply is a `LoadAnswer`. */
  load: LoadSettings;
  /**
   * Opens a stream: its chunks come one per `pull` (`StreamChunk`), the reply ends it (no value).
   * `priority` is the job's band, when the pool said: on lanes an `interactive` job's prefill goes first.
   */
  chat: { request: StreamingChatCompletionRequest; priority?: Priority };
  /** Embeds; the reply is WebLLM's `CreateEmbeddingResponse`. */
  embed: EmbeddingCreateParams;
  /** Frees the model; no input, no value. */
  unload: undefined;
}

/** The name of a call to the worker. */
export type WorkerCall = keyof WorkerCalls;

/**
 * What a page does to a stream it opened (`rid` is its `chat` call's):
 * `pull` asks for the next chunk, `interrupt` stops the generation, `close`
 * leaves the stream (the worker reads it to its end unsent).
 */
export interface StreamControl {
  t: 'pull' | 'interrupt' | 'close';
  rid: number;
}

/** One chunk of stream `rid`, the answer to one `pull`. */
export interface StreamChunk {
  t: 'chunk';
  rid: number;
  chunk: ChatCompletionChunk;
}

/** What the page sends its engine worker. */
export type PageMessage = Hello | CallMessage<WorkerCall> | StreamControl;

/** The worker's answer to `load`. */
export interface LoadAnswer {
  /** An embedding model (WebLLM's `model_type` 1): the engine offers `embeddings`. */
  embeddings: boolean;
  /** Whether prefix reuse is on in this worker. */
  prefixReuse?: boolean;
  /** Why it is off, when it is. */
  prefixReuseReason?: string;
  /**
   * How many generations run at once: the sequences that started (the lanes
   * asked for and the one kept for interactive work), 1 without lanes. Absent: 1.
   */
  lanes?: number;
  /** Why the lanes asked for did not start, when they did not. */
  lanesReason?: string;
  /**
   * With lanes: why JSON-schema and grammar jobs run on WebLLM's own
   * one-sequence path beside them (xgrammar did not load in the worker).
   * Absent: the lanes take them, a matcher per row.
   */
  grammarOff?: string;
}

/**
 * What the engine worker sends back. A reply's `error` is already one of
 * Inkling's typed errors (`classifyLoadError`, `classifyRunError`): `name`
 * is the class, `fields` its own fields (`kind`, `model`, `suggestion`,
 * `url`...) and `cause` what went wrong underneath, usually WebLLM's error.
 */
export type WorkerMessage = Hello | CallReply | CallProgress | StreamChunk;

/** Whether `data` is the worker's `hello`. */
export function isHello(data: unknown): data is Hello {
  return typeof data === 'object' && data !== null && (data as Hello).type === 'hello' && typeof (data as Hello).id === 'number';
}

/**
 * Whether `data` is one of the worker's messages (and not, say, WebLLM's own
 * `{ kind, uuid }` protocol from a worker that runs WebLLM's handler).
 *
 * @example
 * if (!isWorkerMessage(event.data)) return;
 */
export function isWorkerMessage(data: unknown): data is WorkerMessage {
  return isHello(data) || isCallAnswer(data) || isStreamChunk(data);
}

/** Whether `data` is a chunk of a stream. */
export function isStreamChunk(data: unknown): data is StreamChunk {
  return typeof data === 'object' && data !== null && (data as StreamChunk).t === 'chunk' && typeof (data as StreamChunk).rid === 'number';
}
