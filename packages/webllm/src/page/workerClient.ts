import { type ChatCompletionChunk, InvalidOptionError, WorkerCrashedError } from '@inkling/scheduler';
import { CallChannel, ChunkQueue } from '@inkling/scheduler/engine';
import type { WebLLMLoadProgress } from '../progressMapper.js';
import { PROTOCOL, type StreamControl, type WorkerCall, type WorkerCalls, isWorkerMessage } from '../protocol.js';
import type { WorkerLike } from '../types.js';
import { fromWire } from '../wireError.js';

/**
 * The page's end of an engine worker: its calls go through the kit's
 * `CallChannel` (numbered, matched to the worker's replies), a stream is a
 * `chat` call whose chunks come one per pull and whose reply ends it; and it
 * watches the worker for death: once it dies (its `error` or `messageerror`
 * event, or `kill`), whatever is waiting fails with the `WorkerCrashedError`
 * in `death`, and so does every later call (a worker that died never answers
 * again).
 *
 * @example
 * const client = new WorkerClient(worker);
 * await client.hello();
 * await client.call('unload', undefined);
 */
export class WorkerClient {
  readonly #worker: WorkerLike;
  readonly #channel: CallChannel<WorkerCall>;
  /** The `hello` waiting for the worker's, if any. */
  #hello: { resolve(protocol: unknown): void; reject(error: Error): void } | undefined;
  #death: WorkerCrashedError | undefined;

  constructor(worker: WorkerLike) {
    this.#worker = worker;
    // A worker, not a window: there is no target origin (here and below).
    // oxlint-disable-next-line unicorn/require-post-message-target-origin
    this.#channel = new CallChannel<WorkerCall>((message) => worker.postMessage(message), { decode: fromWire });
    // `WorkerLike` promises `onmessage` (a Node thread adapter may offer nothing else).
    // oxlint-disable-next-line unicorn/prefer-add-event-listener
    worker.onmessage = (event) => this.#receive(event.data);
    worker.addEventListener?.('error', (event) => {
      const message = (event as { message?: unknown }).message;
      const detail = typeof message === 'string' && message ? message : 'an uncaught error';
      this.kill(
        new WorkerCrashedError(`The engine's worker died (${detail}). Inkling is replacing it; try again in a moment.`, {
          device: 'gpu',
          cause: event,
        }),
      );
    });
    worker.addEventListener?.('messageerror', (event) => {
      this.kill(
        new WorkerCrashedError("A message from the engine's worker could not be read. Inkling is replacing the engine.", {
          device: 'gpu',
          cause: event,
        }),
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
    this.#hello?.reject(error);
    this.#hello = undefined;
    this.#channel.close(error);
  }

  /**
   * The worker was ended on purpose (`shutDown`): whatever still waits on it
   * fails with the kit's `CallCancelledError`, and so does every later call.
   */
  close(): void {
    this.#channel.close();
    this.#hello?.reject(this.#channel.closed?.reason as Error);
    this.#hello = undefined;
  }

  /** Checks that the worker speaks this version of the protocol. */
  async hello(): Promise<void> {
    const protocol = await new Promise<unknown>((resolve, reject) => {
      const gone = this.#death ?? this.#channel.closed?.reason;
      if (gone) return reject(gone);
      this.#hello = { resolve, reject };
      // oxlint-disable-next-line unicorn/require-post-message-target-origin
      this.#worker.postMessage({ type: 'hello', id: 0, protocol: PROTOCOL });
    });
    if (protocol !== PROTOCOL) {
      throw new InvalidOptionError(
        `The engine's worker speaks "${String(protocol)}", this page "${PROTOCOL}": the worker bundles another version of @inkling/webllm. Build it from the same version as the page.`,
      );
    }
  }

  /** Calls the worker; settles with its reply. */
  call<Op extends Exclude<WorkerCall, 'chat'>>(
    op: Op,
    input: WorkerCalls[Op],
    onProgress?: (report: WebLLMLoadProgress) => void,
  ): Promise<unknown> {
    return this.#channel.call(op, input, onProgress && { onProgress: onProgress as (report: unknown) => void });
  }

  /**
   * Opens a stream; its chunks arrive in the queue returned, one per `next()`
   * (each asks the worker for one: `pull`).
   */
  stream(request: WorkerCalls['chat']): { id: number; chunks: ChunkQueue<ChatCompletionChunk> } {
    let rid: number | undefined;
    const chunks = new ChunkQueue<ChatCompletionChunk>(() => {
      if (rid !== undefined) this.notify({ t: 'pull', rid });
    });
    const call = this.#channel.open('chat', request, { onProgress: (chunk) => chunks.push(chunk as ChatCompletionChunk) });
    rid = call.rid;
    call.answer.then(
      () => chunks.end(),
      (error: unknown) => chunks.fail(error),
    );
    return { id: rid, chunks };
  }

  /** Sends a message that has no answer (`pull`, `interrupt` of stream `rid`). */
  notify(message: StreamControl & { t: 'pull' | 'interrupt' }): void {
    // oxlint-disable-next-line unicorn/require-post-message-target-origin
    if (!this.#channel.closed) this.#worker.postMessage(message);
  }

  /**
   * Leaves stream `rid`: the channel's cancel, whose `close` tells the worker
   * to read it to its end unsent; its reply, if any, is dropped, and a stream
   * already answered sends nothing.
   */
  cancel(rid: number): void {
    this.#channel.cancel(rid);
  }

  #receive(data: unknown): void {
    if (!isWorkerMessage(data)) return;
    if ('type' in data) {
      this.#hello?.resolve(data.protocol);
      this.#hello = undefined;
    } else this.#channel.receive(data.t === 'chunk' ? { t: 'progress', rid: data.rid, report: data.chunk } : data);
  }
}
