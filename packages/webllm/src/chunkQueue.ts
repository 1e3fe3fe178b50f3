import type { ChatCompletionChunk } from '@inkling/scheduler';

/** A `next()` waiting for the worker. */
interface Reader {
  resolve(step: IteratorResult<ChatCompletionChunk>): void;
  reject(error: Error): void;
}

/**
 * The chunks of one stream as the worker pushes them, read by one consumer
 * through `next()`: a chunk waiting is handed over at once, otherwise `next()`
 * waits for the next one, the end, or the error.
 *
 * @example
 * const queue = new ChunkQueue();
 * queue.push(chunk);
 * await queue.next(); // { done: false, value: chunk }
 */
export class ChunkQueue implements AsyncIterator<ChatCompletionChunk> {
  readonly #chunks: ChatCompletionChunk[] = [];
  #reader: Reader | undefined;
  #ended = false;
  #error: Error | undefined;

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
    return new Promise((resolve, reject) => (this.#reader = { resolve, reject }));
  }

  #take(): Reader {
    const reader = this.#reader as Reader;
    this.#reader = undefined;
    return reader;
  }
}
