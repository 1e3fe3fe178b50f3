import type {
  ChatCompletionChunk,
  CreateEmbeddingResponse,
  EmbeddingCreateParams,
  Engine,
  EngineCallOptions,
  PoolTimers,
  StreamingChatCompletionRequest,
} from '@inkling/scheduler';
import { globalTimers } from '@inkling/scheduler/engine';
import type { ChunkQueue } from '@inkling/scheduler/engine';
import { offLaneReason } from '../offLaneReason.js';
import type { WorkerLike } from '../types.js';
import type { WorkerClient } from './workerClient.js';

/** How long `unload()` waits for the worker to free the model before terminating it anyway. */
const UNLOAD_GRACE_MS = 5_000;

/**
 * One loaded WebLLM engine in its own worker, shaped as the pool's `Engine`.
 * It adds no queueing and no retries: WebLLM's chunks pass through as the
 * worker sends them, and so do its errors, typed in the worker; what it adds
 * is death. A call on a worker that died, or a lost GPU device, fails with a
 * fatal error so the pool replaces the engine.
 *
 * @example
 * const engine = new WebLLMEngine(client, worker, { embeddings: false });
 * const stream = await engine.chat.completions.create({ messages, stream: true });
 */
export class WebLLMEngine implements Engine {
  /**
   * How many generations run at once: the worker's lanes (several sequences
   * decoding in one step on the one copy of the weights), or 1 where they did
   * not start (WebLLM runs one generation per model at a time).
   */
  readonly concurrency: number;
  /** Every WebLLM engine of the page computes on its one GPU: a keystroke's prefill goes first there (`Engine.device`). */
  readonly device = 'webgpu';
  readonly chat: Engine['chat'];
  readonly embeddings: Engine['embeddings'];
  /**
   * With lanes: why a request runs on WebLLM's own one-sequence path beside
   * them (tools, or a JSON schema where the worker's xgrammar did not load...),
   * so the pool runs one such job at a time here. Absent without lanes: then
   * every job runs one at a time anyway.
   */
  readonly offLane: Engine['offLane'];
  readonly #client: WorkerClient;
  readonly #worker: WorkerLike;
  readonly #timers: PoolTimers;
  /** The stream the page is reading now, if any. */
  #current: { id: number; chunks: ChunkQueue<ChatCompletionChunk> } | undefined;
  #unloading: Promise<void> | undefined;

  constructor(
    client: WorkerClient,
    worker: WorkerLike,
    options: { embeddings: boolean; lanes?: number; grammarOff?: string; timers?: PoolTimers },
  ) {
    this.concurrency = Number.isInteger(options.lanes) && options.lanes! > 1 ? options.lanes! : 1;
    this.#client = client;
    this.#worker = worker;
    this.#timers = options.timers ?? globalTimers;
    this.chat = { completions: { create: async (request, callOptions) => this.#stream(request, callOptions) } };
    this.embeddings = options.embeddings ? { create: (request) => this.#embed(request) } : undefined;
    this.offLane = this.concurrency > 1 ? (request) => offLaneReason(request, options.grammarOff) : undefined;
  }

  /** Stops the generation running now, between two decode steps. */
  interruptGenerate(): void {
    const current = this.#current;
    if (this.#unloading || !current || current.chunks.ended) return;
    this.#client.notify({ t: 'interrupt', rid: current.id });
  }

  /** Frees the weights and terminates the worker (after a grace period if it does not answer). */
  unload(): Promise<void> {
    this.#unloading ??= shutDown(this.#client, this.#worker, this.#timers);
    return this.#unloading;
  }

  #stream(request: StreamingChatCompletionRequest, options: EngineCallOptions | undefined): AsyncIterable<ChatCompletionChunk> {
    const signal = options?.signal;
    const priority = options?.job?.priority;
    // The band goes along so that the worker's lanes prefill a keystroke's prompt before other new jobs' prompts.
    const current = this.#client.stream(priority === undefined ? { request } : { request, priority });
    this.#current = current;
    const { id, chunks } = current;
    const client = this.#client;
    // With lanes the pool stops one call through its signal (interruptGenerate would stop them all):
    // the worker ends that lane before its next step, with an abort finish chunk.
    if (this.concurrency > 1 && signal) {
      const stop = () => {
        if (!chunks.ended && !this.#unloading) client.notify({ t: 'interrupt', rid: id });
      };
      if (signal.aborted) stop();
      else signal.addEventListener('abort', stop, { once: true });
    }
    return {
      [Symbol.asyncIterator]: () => ({
        // Failures arrive typed: the worker's (`classifyRunError`), or the worker's death.
        next: () => chunks.next(),
        // Left early: the worker reads the rest to the end, so WebLLM's lock is freed
        // (a stream already answered is no call of the channel's: nothing is sent).
        return: async () => {
          client.cancel(id);
          chunks.end();
          return { done: true, value: undefined };
        },
      }),
    };
  }

  async #embed(request: EmbeddingCreateParams): Promise<CreateEmbeddingResponse> {
    return (await this.#client.call('embed', request)) as CreateEmbeddingResponse;
  }
}

/**
 * Asks the worker to free the model (WebLLM destroys the GPU buffers), then
 * ends the worker, which frees whatever is left. A dead or stuck worker is
 * terminated without waiting long.
 *
 * @example
 * await shutDown(client, worker, globalTimers);
 */
export async function shutDown(client: WorkerClient, worker: WorkerLike, timers: PoolTimers = globalTimers): Promise<void> {
  if (!client.death) {
    let timer: unknown;
    const grace = new Promise<void>((resolve) => (timer = timers.setTimeout(resolve, UNLOAD_GRACE_MS)));
    try {
      await Promise.race([client.call('unload', undefined), grace]);
    } catch {
      // Dying while unloading is still unloaded.
    } finally {
      timers.clearTimeout(timer);
    }
  }
  worker.terminate();
  // Nothing will answer now: a call still waiting ends with a CallCancelledError instead of never.
  client.close();
}
