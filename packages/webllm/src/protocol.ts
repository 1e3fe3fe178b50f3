import type { ChatCompletionChunk, EmbeddingCreateParams, StreamingChatCompletionRequest } from '@inkling/scheduler';
import type { CacheBackend, WebLLMAppConfig, WebLLMProgressReport } from './types.js';

/**
 * The name and version of the messages between a page and its engine worker.
 * The worker answers `hello` with its own; a worker of another version is
 * refused before any model loads.
 */
export const PROTOCOL = 'inkling-webllm/1';

/**
 * What the page asks its engine worker. Every message has an `id`; the
 * worker's answers carry the same `id` (a stream's `interrupt` and `close`
 * name the stream's).
 */
export type PageMessage =
  | { type: 'hello'; id: number; protocol: string }
  | {
      type: 'load';
      id: number;
      model: string;
      /** `undefined`: WebLLM's `prebuiltAppConfig`, which only the worker holds. */
      appConfig: WebLLMAppConfig | undefined;
      cache: CacheBackend | undefined;
      engineConfig: Record<string, unknown>;
      chatOptions: Record<string, unknown> | undefined;
    }
  | { type: 'chat'; id: number; request: StreamingChatCompletionRequest }
  | { type: 'embed'; id: number; request: EmbeddingCreateParams }
  | { type: 'interrupt'; id: number }
  | { type: 'close'; id: number }
  | { type: 'unload'; id: number };

/** The worker's answer to `load`. */
export interface LoadAnswer {
  /** An embedding model (WebLLM's `model_type` 1): the engine offers `embeddings`. */
  embeddings: boolean;
}

/** An error crossing from the worker: WebLLM's class name and its words. */
export interface WireError {
  name: string;
  message: string;
}

/** What the engine worker sends back. */
export type WorkerMessage =
  | { type: 'hello'; id: number; protocol: string }
  | { type: 'progress'; id: number; report: WebLLMProgressReport }
  | { type: 'chunk'; id: number; chunk: ChatCompletionChunk }
  | { type: 'done'; id: number; value?: unknown }
  | { type: 'error'; id: number; error: WireError };

/** A page message without its `id`, as callers write it. */
export type PageRequest = PageMessage extends infer M ? (M extends PageMessage ? Omit<M, 'id'> : never) : never;

/**
 * Whether `data` is one of the worker's messages (and not, say, WebLLM's own
 * `{ kind, uuid }` protocol from a worker that runs WebLLM's handler).
 *
 * @example
 * if (!isWorkerMessage(event.data)) return;
 */
export function isWorkerMessage(data: unknown): data is WorkerMessage {
  return typeof data === 'object' && data !== null && typeof (data as { type?: unknown }).type === 'string' && typeof (data as { id?: unknown }).id === 'number';
}

/**
 * An error as it crosses to the page: its name survives, which is what the
 * page's classification reads. WebLLM sometimes throws strings
 * (`"DeviceLostError: ..."`); those are split into name and message.
 *
 * @example
 * post({ type: 'error', id, error: toWire(reason) });
 */
export function toWire(reason: unknown): WireError {
  if (reason instanceof Error) return { name: reason.name, message: reason.message };
  const text = typeof reason === 'string' ? reason : String(reason);
  const match = /^([A-Za-z][A-Za-z0-9]*Error): ([\s\S]*)$/.exec(text);
  return match ? { name: match[1] ?? 'Error', message: match[2] ?? '' } : { name: 'Error', message: text };
}

/**
 * The page's `Error` for a wire error, named as in the worker.
 *
 * @example
 * reject(fromWire(message.error));
 */
export function fromWire(wire: WireError): Error {
  const error = new Error(wire.message);
  error.name = wire.name;
  return error;
}
