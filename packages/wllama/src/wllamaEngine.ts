import { type CallHandle, CallsInFlight, requestedSchema } from '@inkling/scheduler/engine';
import {
  type ChatCompletionChunk,
  type CreateEmbeddingResponse,
  type EmbeddingCreateParams,
  type EngineCallOptions,
  EngineError,
  type StreamingChatCompletionRequest,
  WorkerCrashedError,
} from '@inkling/scheduler';
import { chatStream } from './chatStream.js';
import { classifyRunError } from './classifyError.js';
import { llamaSchema } from './llamaSchema.js';
import { PromptCacheMeter, promptText } from './promptCacheMeter.js';
import type { PromptCacheStats, WllamaEngine as WllamaEngineShape } from './types.js';
import type { WllamaLike } from './wllamaLike.js';
import type { WorkerWatch } from './workerWatch.js';

/** What the engine knows about what it loaded. */
export interface LoadedModel {
  model: string;
  threads: number;
  embeddingWidth: number;
  contextSize: number;
  embeddings: boolean;
}

/** A wllama worker with the model loaded, and the watch on its death. */
export interface EngineWorker {
  wllama: WllamaLike;
  watch: WorkerWatch;
}

/** How an engine bounds llama.cpp's prompt cache: past `limitBytes` (estimated), a fresh worker between jobs. */
export interface WorkerRecycling {
  limitBytes: number;
  /** KV bytes of one cached token (`kvBytesPerToken`). */
  bytesPerToken: number;
  /** Starts a new worker with the same model and parameters. */
  restart: () => Promise<EngineWorker>;
}

/** `promptCacheLimitMiB`'s default. */
export const DEFAULT_PROMPT_CACHE_LIMIT_MIB = 256;

/**
 * One loaded wllama (llama.cpp in WebAssembly, in its own worker), shaped as
 * the pool's `Engine`. One generation at a time; each call has its own
 * `AbortController`, aborted by the call's `signal`, by `interruptGenerate()`
 * and by `unload()`. An aborted generation ends with a `finish_reason:
 * 'abort'` chunk, as WebLLM's does, once llama.cpp has stopped (within a
 * token). A dead worker fails calls with `WorkerCrashedError` (fatal).
 *
 * llama.cpp keeps every prompt a new one mostly replaced in host memory and
 * wllama 3.13 cannot cap that cache, so with `recycling` the engine follows it
 * (`PromptCacheMeter`) and, once the estimate passes the limit, replaces its
 * worker between jobs: a worker's WebAssembly memory never shrinks, so only a
 * new one gives it back. The next job waits for the reload.
 *
 * Built by `wllamaEngines`.
 *
 * @example
 * const engine = await wllamaEngines({ model, wasmUrl })(0, () => {});
 * const stream = await engine.chat.completions.create({ messages, stream: true });
 */
export class WllamaEngine implements WllamaEngineShape {
  readonly concurrency = 1 as const;
  readonly model: string;
  readonly threads: number;
  readonly embeddingWidth: number;
  readonly contextSize: number;
  readonly chat: WllamaEngineShape['chat'];
  readonly embeddings: WllamaEngineShape['embeddings'];
  #worker: EngineWorker;
  readonly #recycling: WorkerRecycling | undefined;
  readonly #meter: PromptCacheMeter | undefined;
  readonly #calls = new CallsInFlight();
  /** Settles once a worker replacement under way is over. */
  #restarting: Promise<void> | undefined;
  #restarts = 0;
  #restartMs = 0;
  #unloading: Promise<void> | undefined;

  constructor(worker: EngineWorker, loaded: LoadedModel, recycling?: WorkerRecycling) {
    this.#worker = worker;
    this.#recycling = recycling;
    this.#meter = recycling ? new PromptCacheMeter(recycling.bytesPerToken) : undefined;
    this.model = loaded.model;
    this.threads = loaded.threads;
    this.embeddingWidth = loaded.embeddingWidth;
    this.contextSize = loaded.contextSize;
    this.chat = { completions: { create: (request, options) => this.#createChat(request, options) } };
    this.embeddings = loaded.embeddings ? { create: (request, options) => this.#embed(request, options) } : undefined;
  }

  /** What bounding llama.cpp's host prompt cache has done (zeros when `promptCacheLimitMiB` is `Infinity`). */
  get promptCache(): PromptCacheStats {
    return {
      estimatedBytes: this.#meter?.bytes ?? 0,
      prompts: this.#meter?.prompts ?? 0,
      restarts: this.#restarts,
      restartMs: this.#restartMs,
    };
  }

  /** Stops the generation running now; its stream ends with an `'abort'` chunk. */
  interruptGenerate(): void {
    this.#calls.interrupt();
  }

  /** Stops what runs and terminates the worker, which frees the model's memory. */
  unload(): Promise<void> {
    this.#unloading ??= (async () => {
      this.interruptGenerate();
      await this.#restarting;
      await this.#worker.wllama.exit().catch(() => {});
    })();
    return this.#unloading;
  }

  async #createChat(request: StreamingChatCompletionRequest, options: EngineCallOptions = {}): Promise<AsyncIterable<ChatCompletionChunk>> {
    // Checked before the call opens: a schema no grammar can express ends the job here, no token spent.
    // llama.cpp turns a json_schema response_format into a grammar itself, from the shape it can read.
    const schema = requestedSchema(request);
    const format =
      schema === undefined
        ? {}
        : { response_format: { type: 'json_schema', json_schema: { name: 'object', schema: llamaSchema(schema) } } };
    const { signal, release, abort } = this.#open(options.signal);
    const params: Record<string, unknown> = { ...request, ...format, stream: true, stream_options: { include_usage: true } };
    delete params.model;
    const meter = this.#meter;
    let usage: { prompt_tokens: number; completion_tokens: number } | undefined;
    let ended = false;
    const stream = chatStream({
      model: this.model,
      signal,
      release: () => {
        release();
        if (ended) return;
        ended = true;
        this.#afterChat(usage);
      },
      abort,
      start: async (onData) => {
        await this.#restarting;
        if (signal.aborted) return undefined;
        const { wllama, watch } = this.#worker;
        meter?.send(promptText(request.messages));
        const take = (chunk: unknown) => {
          const u = (chunk as { usage?: { prompt_tokens?: unknown; completion_tokens?: unknown } } | null)?.usage;
          if (typeof u?.prompt_tokens === 'number')
            usage = { prompt_tokens: u.prompt_tokens, completion_tokens: Number(u.completion_tokens) || 0 };
          onData(chunk);
        };
        return watch.race(wllama.createChatCompletion({ ...params, stream: true, onData: take, abortSignal: signal }));
      },
      classify: (reason) => this.#worker.watch.death ?? classifyRunError(reason, this.model),
    });
    // A stream closed before its first next() never runs its finally: release the call here too.
    const close = stream.return.bind(stream);
    stream.return = (value) => {
      release();
      return close(value);
    };
    return stream;
  }

  /** A chat call is over: past the limit, replace the worker before the next job. */
  #afterChat(usage: { prompt_tokens: number; completion_tokens: number } | undefined): void {
    const meter = this.#meter;
    const recycling = this.#recycling;
    if (!meter || !recycling || this.#restarting || this.#unloading) return;
    meter.settle(usage);
    if (meter.bytes <= recycling.limitBytes || this.#worker.watch.death) return;
    const restarting = this.#restart(recycling, meter);
    this.#restarting = restarting;
    void restarting.finally(() => {
      if (this.#restarting === restarting) this.#restarting = undefined;
    });
  }

  async #restart(recycling: WorkerRecycling, meter: PromptCacheMeter): Promise<void> {
    const began = performance.now();
    const old = this.#worker;
    // The old worker goes first: two copies of the weights at once is what a phone cannot afford.
    await old.wllama.exit().catch(() => {});
    if (this.#unloading) return;
    try {
      this.#worker = await recycling.restart();
      meter.reset();
      this.#restarts += 1;
      this.#restartMs += performance.now() - began;
      if (this.#unloading) await this.#worker.wllama.exit().catch(() => {});
    } catch (error) {
      old.watch.kill(
        new WorkerCrashedError(
          `The engine's worker could not be restarted to free llama.cpp's prompt cache (${error instanceof Error ? error.message : String(error)}). Inkling is replacing the engine; try again in a moment.`,
          { device: 'cpu', cause: error },
        ),
      );
    }
  }

  async #embed(request: EmbeddingCreateParams, options: EngineCallOptions = {}): Promise<CreateEmbeddingResponse> {
    const { release } = this.#open(options.signal);
    try {
      const { wllama, watch } = this.#worker;
      const response = (await watch.race(wllama.createEmbedding({ input: request.input }))) as CreateEmbeddingResponse;
      return {
        object: 'list',
        model: this.model,
        data: response.data.map((item, index) => ({ object: 'embedding', embedding: item.embedding, index: item.index ?? index })),
        ...(response.usage ? { usage: { prompt_tokens: response.usage.prompt_tokens, total_tokens: response.usage.total_tokens } } : {}),
      };
    } catch (reason) {
      throw this.#worker.watch.death ?? classifyRunError(reason, this.model);
    } finally {
      release();
    }
  }

  /** One call, linked to its signal and registered as in flight. */
  #open(outer: AbortSignal | undefined): CallHandle {
    if (this.#unloading) {
      throw new EngineError(`The engine for ${this.model} was unloaded. Submit jobs through a loaded pool; it builds a new engine.`);
    }
    if (this.#worker.watch.death) throw this.#worker.watch.death;
    return this.#calls.open(outer);
  }
}
