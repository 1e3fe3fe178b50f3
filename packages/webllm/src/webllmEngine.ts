import type {
  ChatCompletionChunk,
  CreateEmbeddingResponse,
  EmbeddingCreateParams,
  Engine,
  StreamingChatCompletionRequest,
} from '@inkling/scheduler';
import { classifyRunError } from './classifyError.js';
import type { WebLLMWorkerEngine, WorkerLike } from './types.js';
import type { WorkerWatch } from './workerWatch.js';

/** How long `unload()` waits for the worker to free the model before terminating it anyway. */
const UNLOAD_GRACE_MS = 5_000;

/**
 * One loaded WebLLM engine in its own worker, shaped as the pool's `Engine`.
 * It adds no queueing and no retries: WebLLM's chunks pass through as they
 * are; what it adds is death. A call on a worker that died, or a lost GPU
 * device, fails with a fatal error so the pool replaces the engine.
 *
 * @example
 * const engine = new WebLLMEngine(inner, worker, watch, { embeddings: false });
 * const stream = await engine.chat.completions.create({ messages, stream: true });
 */
export class WebLLMEngine implements Engine {
  /** WebLLM runs one generation per model at a time. */
  readonly concurrency = 1;
  readonly chat: Engine['chat'];
  readonly embeddings: Engine['embeddings'];
  readonly #inner: WebLLMWorkerEngine;
  readonly #worker: WorkerLike;
  readonly #watch: WorkerWatch;
  #unloading: Promise<void> | undefined;

  constructor(inner: WebLLMWorkerEngine, worker: WorkerLike, watch: WorkerWatch, options: { embeddings: boolean }) {
    this.#inner = inner;
    this.#worker = worker;
    this.#watch = watch;
    this.chat = { completions: { create: (request) => this.#stream(request) } };
    this.embeddings = options.embeddings ? { create: (request) => this.#embed(request) } : undefined;
  }

  /** Stops the generation running now, between two decode steps. */
  interruptGenerate(): void {
    if (this.#watch.death || this.#unloading) return;
    this.#inner.interruptGenerate();
  }

  /** Frees the weights and terminates the worker (after a grace period if it does not answer). */
  unload(): Promise<void> {
    this.#unloading ??= shutDown(this.#inner, this.#worker, this.#watch);
    return this.#unloading;
  }

  async #call<T>(start: () => Promise<unknown>): Promise<T> {
    try {
      return (await this.#watch.race(start())) as T;
    } catch (reason) {
      throw this.#watch.death ?? classifyRunError(reason);
    }
  }

  async #stream(request: StreamingChatCompletionRequest): Promise<AsyncIterable<ChatCompletionChunk>> {
    const stream = await this.#call<AsyncIterable<ChatCompletionChunk>>(() => this.#inner.chat.completions.create(request));
    const iterator = stream[Symbol.asyncIterator]();
    // Each next() is one round trip to the worker; none is sent before the
    // pool asks, so a stream closed unstarted never takes WebLLM's lock.
    return {
      [Symbol.asyncIterator]: () => ({
        next: () => this.#call<IteratorResult<ChatCompletionChunk>>(() => iterator.next()),
        return: async () => (await iterator.return?.()) ?? { done: true, value: undefined },
      }),
    };
  }

  #embed(request: EmbeddingCreateParams): Promise<CreateEmbeddingResponse> {
    return this.#call<CreateEmbeddingResponse>(() => this.#inner.embeddings.create(request));
  }
}

/**
 * Asks WebLLM to free the model (it destroys the GPU buffers), then ends the
 * worker, which frees whatever is left. A dead or stuck worker is terminated
 * without waiting long.
 *
 * @example
 * await shutDown(inner, worker, watch);
 */
export async function shutDown(inner: WebLLMWorkerEngine, worker: WorkerLike, watch: WorkerWatch): Promise<void> {
  if (!watch.death) {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const grace = new Promise<void>((resolve) => (timer = setTimeout(resolve, UNLOAD_GRACE_MS)));
    try {
      await Promise.race([watch.race(inner.unload()), grace]);
    } catch {
      // Dying while unloading is still unloaded.
    } finally {
      clearTimeout(timer);
    }
  }
  worker.terminate();
}
