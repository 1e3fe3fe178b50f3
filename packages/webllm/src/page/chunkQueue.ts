import type { ChatCompletionChunk } from '@inkling/scheduler';

/** A `next()` waiting for the worker. */
interface Reader {
  resolve(step: IteratorResult<ChatCompletionChunk>): void;
  reject(error: Error): void;
}

/**
 * The chunks of one stream, read by one consumer through `next()`: a chunk
 * waiting is handed over at once; otherwise `next()` calls `pull` (the
 * worker then runs one step) and waits for that chunk, the end, or the error.
 * Without `pull` the producer pushes on its own.
 *
 * @example
 * const queue = new ChunkQueue(() => client.notify({ type: 'pull', id }));
 * await queue.next(); // pulls, then { done: false, value: chunk }
 */
export class ChunkQueue implements AsyncIterator<ChatCompletionChunk> {
  readonly #chunks: ChatCompletionChunk[] = [];
  readonly #pull: (() => void) | undefined;
  #reader: Reader | undefined;
  #ended = false;
  #error: Error | undefined;

  constructor(pull?: () => void) {
    this.#pull = pull;
  }

  push(chunk: ChatCompletionChunk): void {
    if (this.#ended) return;
    if (this.#reader) this.#take().resolve({ done: false, value: chunk });
    else this.#chunks.push(chunk);
  }

  /** No more chunks. */
  end(): void {
    this.#ended = true;
    if (this.#reader && this.#chunks.length === 0) this.#take().resolve({ done: true, value: undefined });
  }

  /** The stream failed: the reader gets `error` after the chunks already here. */
  fail(error: Error): void {
    if (this.#ended) return;
    this.#error = error;
    this.#ended = true;
    if (this.#reader && this.#chunks.length === 0) this.#take().reject(error);
  }

  /** Whether the worker has said its last word on this stream. */
  get ended(): boolean {
    return this.#ended;
  }

  next(): Promise<IteratorResult<ChatCompletionChunk>> {
    const chunk = this.#chunks.shift();
    if (chunk) return Promise.resolve({ done: false, value: chunk });
    if (this.#error) return Promise.reject(this.#error);
    if (this.#ended) return Promise.resolve({ done: true, value: undefined });
    const waiting = new Promise<IteratorResult<ChatCompletionChunk>>((resolve, reject) => (this.#reader = { resolve, reject }));
    this.#pull?.();
    return waiting;
  }

  #take(): Reader {
    const reader = this.#reader as Reader;
    this.#reader = undefined;
    return reader;
  }
}
