import { type ChatCompletionChunk, InvalidOptionError } from '@inkling/scheduler';
import { ChunkQueue } from '@inkling/scheduler/engine';
import type { WebLLMLoadProgress } from '../progressMapper.js';
import { PROTOCOL, type PageRequest, type WorkerMessage, isWorkerMessage } from '../protocol.js';
import type { WorkerLike } from '../types.js';
import { WorkerCrashedError } from '../errors.js';
import { fromWire } from '../wireError.js';

/** What waits for the answers to one request. */
interface Pending {
  resolve(value: unknown): void;
  reject(error: Error): void;
  chunks?: ChunkQueue<ChatCompletionChunk>;
  onProgress?: (report: WebLLMLoadProgress) => void;
}

/**
 * The page's end of an engine worker: numbers requests, matches the worker's
 * answers to them, and watches the worker for death: once it dies (its
 * `error` or `messageerror` event, or `kill`), whatever is waiting fails with
 * the `WorkerCrashedError` in `death`, and so does every later request (a
 * worker that died never answers again).
 *
 * @example
 * const client = new WorkerClient(worker);
 * await client.hello();
 * await client.request({ type: 'unload' });
 */
export class WorkerClient {
  readonly #worker: WorkerLike;
  readonly #pending = new Map<number, Pending>();
  #nextId = 1;
  #death: WorkerCrashedError | undefined;

  constructor(worker: WorkerLike) {
    this.#worker = worker;
    // `WorkerLike` promises `onmessage` (a Node thread adapter may offer nothing else).
    // oxlint-disable-next-line unicorn/prefer-add-event-listener
    worker.onmessage = (event) => this.#receive(event.data);
    worker.addEventListener?.('error', (event) => {
      const message = (event as { message?: unknown }).message;
      const detail = typeof message === 'string' && message ? message : 'an uncaught error';
      this.kill(
        new WorkerCrashedError(`The engine's worker died (${detail}). Inkling is replacing it; try again in a moment.`, { cause: event }),
      );
    });
    worker.addEventListener?.('messageerror', (event) => {
      this.kill(
        new WorkerCrashedError("A message from the engine's worker could not be read. Inkling is replacing the engine.", { cause: event }),
      );
    });
  }

  /** Why the worker died, once it has. */
  get death(): WorkerCrashedError | undefined {
    return this.#death;
  }

  /** Marks the worker dead and fails every call waiting on it. */
  kill(error: WorkerCrashedError): void {
    if (this.#death) return;
    this.#death = error;
    for (const pending of this.#pending.values()) pending.reject(error);
    this.#pending.clear();
  }

  /** Checks that the worker speaks this version of the protocol. */
  async hello(): Promise<void> {
    const protocol = await this.request({ type: 'hello', protocol: PROTOCOL });
    if (protocol !== PROTOCOL) {
      throw new InvalidOptionError(
        `The engine's worker speaks "${String(protocol)}", this page "${PROTOCOL}": the worker bundles another version of @inkling/webllm. Build it from the same version as the page.`,
      );
    }
  }

  /** Sends a request; settles with the worker's answer. */
  request(message: PageRequest, onProgress?: (report: WebLLMLoadProgress) => void): Promise<unknown> {
    return new Promise((resolve, reject) => {
      const id = this.#send(message, { resolve, reject, ...(onProgress ? { onProgress } : {}) });
      if (id === undefined) reject(this.#death);
    });
  }

  /**
   * Opens a stream; its chunks arrive in the queue returned, one per `next()`
   * (each asks the worker for one: `pull`).
   */
  stream(message: PageRequest): { id: number; chunks: ChunkQueue<ChatCompletionChunk> } {
    let id: number | undefined;
    const chunks = new ChunkQueue<ChatCompletionChunk>(() => {
      if (id !== undefined) this.notify({ type: 'pull', id });
    });
    id = this.#send(message, { resolve: () => chunks.end(), reject: (error) => chunks.fail(error), chunks });
    if (id === undefined) chunks.fail(this.#death as WorkerCrashedError);
    return { id: id ?? 0, chunks };
  }

  /** Sends a message that has no answer (`pull`, `interrupt`, `close` of stream `id`). */
  notify(message: { type: 'pull' | 'interrupt' | 'close'; id: number }): void {
    if (message.type === 'close') this.#pending.delete(message.id);
    // A worker, not a window: there is no target origin (here and below).
    // oxlint-disable-next-line unicorn/require-post-message-target-origin
    if (!this.#death) this.#worker.postMessage(message);
  }

  #send(message: PageRequest, pending: Pending): number | undefined {
    if (this.#death) return undefined;
    const id = this.#nextId;
    this.#nextId += 1;
    this.#pending.set(id, pending);
    // oxlint-disable-next-line unicorn/require-post-message-target-origin
    this.#worker.postMessage({ ...message, id });
    return id;
  }

  #receive(data: unknown): void {
    if (!isWorkerMessage(data)) return;
    const message = data as WorkerMessage;
    const pending = this.#pending.get(message.id);
    if (!pending) return;
    switch (message.type) {
      case 'progress':
        return pending.onProgress?.(message.report);
      case 'chunk':
        return pending.chunks?.push(message.chunk);
      case 'hello':
        this.#pending.delete(message.id);
        return pending.resolve(message.protocol);
      case 'done':
        this.#pending.delete(message.id);
        return pending.resolve(message.value);
      case 'error':
        this.#pending.delete(message.id);
        return pending.reject(fromWire(message.error));
      default:
        return undefined;
    }
  }
}
