/** A `next()` waiting for the producer. */
interface Reader<T> {
  resolve(step: IteratorResult<T>): void;
  reject(reason: unknown): void;
}

/**
 * A push→pull queue between a producer that pushes (a worker's messages,
 * an engine's callback) and one consumer that reads with `next()` or
 * `for await`: an item waiting is handed over at once; otherwise `next()`
 * calls `pull` (the producer may then make one item: backpressure) and waits
 * for that item, the end, or the failure. Without `pull` the producer pushes
 * at its own pace. Items pushed after `end()` or `fail()` are dropped; a
 * failure reaches the reader after the items already queued.
 *
 * @example
 * const queue = new ChunkQueue<ChatCompletionChunk>(() => client.notify({ t: 'pull', rid }));
 * worker.onChunk = (chunk) => queue.push(chunk);
 * for await (const chunk of queue) onChunk(chunk); // pulls one chunk per step
 */
export class ChunkQueue<T> implements AsyncIterableIterator<T> {
  readonly #items: T[] = [];
  readonly #pull: (() => void) | undefined;
  #reader: Reader<T> | undefined;
  #ended = false;
  #failure: { reason: unknown } | undefined;

  /** `pull` is called by each `next()` that finds nothing queued, before it waits. */
  constructor(pull?: () => void) {
    this.#pull = pull;
  }

  /** Hands `item` to the waiting reader, or queues it. */
  push(item: T): void {
    if (this.#ended) return;
    const reader = this.#take();
    if (reader) reader.resolve({ done: false, value: item });
    else this.#items.push(item);
  }

  /** No more items: the reader gets `done` after the ones queued. */
  end(): void {
    this.#ended = true;
    if (this.#items.length === 0) this.#take()?.resolve({ done: true, value: undefined });
  }

  /** The producer failed: the reader gets `reason` (a rejection) after the items queued. */
  fail(reason: unknown): void {
    if (this.#ended) return;
    this.#failure = { reason };
    this.#ended = true;
    if (this.#items.length === 0) this.#take()?.reject(reason);
  }

  /** Whether the producer has said its last word (`end` or `fail`). */
  get ended(): boolean {
    return this.#ended;
  }

  /** The next item; waits (after `pull`) when none is queued. One reader at a time. */
  next(): Promise<IteratorResult<T>> {
    if (this.#items.length > 0) return Promise.resolve({ done: false, value: this.#items.shift() as T });
    if (this.#failure) return Promise.reject(this.#failure.reason);
    if (this.#ended) return Promise.resolve({ done: true, value: undefined });
    const waiting = new Promise<IteratorResult<T>>((resolve, reject) => (this.#reader = { resolve, reject }));
    this.#pull?.();
    return waiting;
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  #take(): Reader<T> | undefined {
    const reader = this.#reader;
    this.#reader = undefined;
    return reader;
  }
}
