import { type CallHandle, CallsInFlight, requestedSchema } from '@inkling/scheduler/engine';
import {
  type ChatCompletionChunk,
  type CreateEmbeddingResponse,
  type EmbeddingCreateParams,
  type EngineCallOptions,
  EngineError,
  type StreamingChatCompletionRequest,
} from '@inkling/scheduler';
import { chatStream } from './chatStream.js';
import { classifyRunError } from './classifyError.js';
import { llamaSchema } from './llamaSchema.js';
import type { WllamaEngine as WllamaEngineShape } from './types.js';
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

/**
 * One loaded wllama (llama.cpp in WebAssembly, in its own worker), shaped as
 * the pool's `Engine`. One generation at a time; each call has its own
 * `AbortController`, aborted by the call's `signal`, by `interruptGenerate()`
 * and by `unload()`. An aborted generation ends with a `finish_reason:
 * 'abort'` chunk, as WebLLM's does, once llama.cpp has stopped (within a
 * token). A dead worker fails calls with `WorkerCrashedError` (fatal).
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
  readonly #wllama: WllamaLike;
  readonly #watch: WorkerWatch;
  readonly #calls = new CallsInFlight();
  #unloading: Promise<void> | undefined;

  constructor(wllama: WllamaLike, watch: WorkerWatch, loaded: LoadedModel) {
    this.#wllama = wllama;
    this.#watch = watch;
    this.model = loaded.model;
    this.threads = loaded.threads;
    this.embeddingWidth = loaded.embeddingWidth;
    this.contextSize = loaded.contextSize;
    this.chat = { completions: { create: (request, options) => this.#createChat(request, options) } };
    this.embeddings = loaded.embeddings ? { create: (request, options) => this.#embed(request, options) } : undefined;
  }

  /** Stops the generation running now; its stream ends with an `'abort'` chunk. */
  interruptGenerate(): void {
    this.#calls.interrupt();
  }

  /** Stops what runs and terminates the worker, which frees the model's memory. */
  unload(): Promise<void> {
    this.#unloading ??= (async () => {
      this.interruptGenerate();
      await this.#wllama.exit().catch(() => {});
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
    const stream = chatStream({
      model: this.model,
      signal,
      release,
      abort,
      start: (onData) => this.#watch.race(this.#wllama.createChatCompletion({ ...params, stream: true, onData, abortSignal: signal })),
      classify: (reason) => this.#watch.death ?? classifyRunError(reason, this.model),
    });
    // A stream closed before its first next() never runs its finally: release the call here too.
    const close = stream.return.bind(stream);
    stream.return = (value) => {
      release();
      return close(value);
    };
    return stream;
  }

  async #embed(request: EmbeddingCreateParams, options: EngineCallOptions = {}): Promise<CreateEmbeddingResponse> {
    const { release } = this.#open(options.signal);
    try {
      const response = (await this.#watch.race(this.#wllama.createEmbedding({ input: request.input }))) as CreateEmbeddingResponse;
      return {
        object: 'list',
        model: this.model,
        data: response.data.map((item, index) => ({ object: 'embedding', embedding: item.embedding, index: item.index ?? index })),
        ...(response.usage ? { usage: { prompt_tokens: response.usage.prompt_tokens, total_tokens: response.usage.total_tokens } } : {}),
      };
    } catch (reason) {
      throw this.#watch.death ?? classifyRunError(reason, this.model);
    } finally {
      release();
    }
  }

  /** One call, linked to its signal and registered as in flight. */
  #open(outer: AbortSignal | undefined): CallHandle {
    if (this.#unloading) {
      throw new EngineError(`The engine for ${this.model} was unloaded. Submit jobs through a loaded pool; it builds a new engine.`);
    }
    if (this.#watch.death) throw this.#watch.death;
    return this.#calls.open(outer);
  }
}
