import { type ChatCompletionChunk, encodeError, isFinalChunk } from '@inkling/scheduler';
import { checkWebGPU } from './checkWebGPU.js';
import { classifyLoadError, classifyRunError } from './classifyError.js';
import type { GPULike } from './detectWebGPU.js';
import { ModelNotFoundError } from './errors.js';
import { ProgressMapper } from './progressMapper.js';
import { type LoadAnswer, PROTOCOL, type PageMessage, type WorkerMessage } from './protocol.js';
import { resolveAppConfig } from './resolveAppConfig.js';
import type { WebLLMAppConfig, WebLLMEngineLike, WebLLMModule, WebLLMProgressReport } from './types.js';

/** The worker's side of the channel: a worker's global scope fits, and so does a Node `MessagePort` adapter. */
export interface WorkerEndpoint {
  postMessage(message: unknown): void;
  addEventListener(type: 'message', listener: (event: MessageEvent) => void): void;
}

/** The part of `@mlc-ai/web-llm` the engine worker needs. */
export type WebLLMEngineModule = Pick<WebLLMModule, 'MLCEngine' | 'prebuiltAppConfig'>;

/** Options of `hostWebLLM`. */
export interface HostWebLLMOptions {
  /**
   * The WebGPU entry point checked before each load (an adapter, `shader-f16`
   * for an f16 model). Default: the worker's own `navigator.gpu`, looked up
   * when a load starts.
   */
  gpu?: GPULike | null;
}

/** One stream the worker is reading from WebLLM. */
interface StreamState {
  /** The page asked it to stop (`interrupt`) or left it (`close`). */
  stopping: boolean;
  /** The page left: chunks are read to the end (so WebLLM's lock is freed) but not sent. */
  closed: boolean;
}

/**
 * Serves one WebLLM engine over Inkling's worker protocol: the engine worker's
 * half of `webllmEngines`. `@inkling/webllm/worker` calls it with the worker's
 * global scope and the WebLLM it bundles; call it yourself to run another
 * WebLLM version in the peer range, or in a Node worker thread.
 *
 * The work that needs WebLLM's knowledge happens here, so the page never
 * carries it: before a load the worker finds the model's record and checks
 * WebGPU; WebLLM's progress reports become one overall fraction; WebLLM's
 * errors become Inkling's typed errors (`ModelLoadError`, `OutOfMemoryError`,
 * `GPUDeviceLostError`...), which cross with their message and fields.
 *
 * The worker streams chunks as WebLLM makes them (no round trip per token),
 * forwards an interrupt only to a stream that is running (so WebLLM before
 * 0.2.86 never keeps an interrupt for the next generation), repeats it on the
 * next token in case it landed during prefill, and reads a stream the page
 * left to its end, so WebLLM's lock is always released.
 *
 * @example
 * // my-engine-worker.ts
 * import { hostWebLLM } from '@inkling/webllm';
 * import { MLCEngine, prebuiltAppConfig } from '@mlc-ai/web-llm';
 * hostWebLLM(globalThis as never, { MLCEngine, prebuiltAppConfig });
 */
export function hostWebLLM(endpoint: WorkerEndpoint, webllm: WebLLMEngineModule, options: HostWebLLMOptions = {}): void {
  // A worker's scope or a thread's port, not a window: there is no target origin.
  // oxlint-disable-next-line unicorn/require-post-message-target-origin
  const host = new EngineHost(webllm, options.gpu, (message) => endpoint.postMessage(message));
  endpoint.addEventListener('message', (event) => host.receive(event.data as PageMessage));
}

class EngineHost {
  readonly #webllm: WebLLMEngineModule;
  readonly #gpu: GPULike | null | undefined;
  readonly #post: (message: WorkerMessage) => void;
  readonly #streams = new Map<number, StreamState>();
  #engine: WebLLMEngineLike | undefined;

  constructor(webllm: WebLLMEngineModule, gpu: GPULike | null | undefined, post: (message: WorkerMessage) => void) {
    this.#webllm = webllm;
    this.#gpu = gpu;
    this.#post = post;
  }

  receive(message: PageMessage): void {
    if (typeof message !== 'object' || message === null) return;
    const { id } = message;
    switch (message.type) {
      case 'hello':
        return this.#post({ type: 'hello', id, protocol: PROTOCOL });
      case 'load':
        return this.#answer(id, () => this.#load(message));
      case 'chat':
        return void this.#chat(id, message.request);
      case 'embed':
        return this.#answer(id, () => this.#loaded().embeddings.create(message.request));
      case 'interrupt':
        return this.#stop(id, false);
      case 'close':
        return this.#stop(id, true);
      case 'unload':
        return this.#answer(id, () => this.#unload());
      default:
        // A message of some other protocol: not ours to answer.
        return undefined;
    }
  }

  #answer(id: number, run: () => Promise<unknown>): void {
    // Through a promise, so that a request that throws at once is answered too.
    Promise.resolve().then(run).then(
      (value) => this.#post({ type: 'done', id, value }),
      (reason: unknown) => this.#fail(id, reason),
    );
  }

  /** Answers request `id` with the typed error for `reason` (a typed one passes as it is). */
  #fail(id: number, reason: unknown): void {
    this.#post({ type: 'error', id, error: encodeError(classifyRunError(reason)) });
  }

  /**
   * Loads the model after checking that it can load here (a record for it,
   * WebGPU that suits it); answers with what the page needs to know of it.
   * Every failure is typed (`classifyLoadError`).
   */
  async #load(message: Extract<PageMessage, { type: 'load' }>): Promise<LoadAnswer> {
    const { id, model } = message;
    const appConfig = resolveAppConfig(message.appConfig ?? (this.#webllm.prebuiltAppConfig as WebLLMAppConfig), message.cache);
    const record = appConfig.model_list.find((r) => r.model_id === model);
    if (!record) throw new ModelNotFoundError(model);
    try {
      if (message.checkWebGPU) await checkWebGPU(record, this.#gpu);
      const progress = new ProgressMapper();
      const engine = new this.#webllm.MLCEngine({
        ...message.engineConfig,
        appConfig,
        initProgressCallback: (report: WebLLMProgressReport) => this.#post({ type: 'progress', id, report: progress.map(report) }),
      } as never);
      // Set before the reload, so an unload during it reaches WebLLM and stops the downloads.
      this.#engine = engine;
      await engine.reload(model, message.chatOptions as never);
    } catch (reason) {
      throw classifyLoadError(reason, model, record);
    }
    return { embeddings: record.model_type === 1 };
  }

  async #chat(id: number, request: object): Promise<void> {
    const state: StreamState = { stopping: false, closed: false };
    this.#streams.set(id, state);
    try {
      const engine = this.#loaded();
      const stream = (await engine.chat.completions.create({ ...request, stream: true })) as AsyncIterable<ChatCompletionChunk>;
      for await (const chunk of stream) {
        // An interrupt that landed during prefill is lost on WebLLM 0.2.86
        // (it clears the flag as the generation starts): repeat it while
        // tokens still come. Never after the last one, or WebLLM before
        // 0.2.86 would keep it for the next generation.
        if (state.stopping && !isFinalChunk(chunk)) engine.interruptGenerate();
        if (!state.closed) this.#post({ type: 'chunk', id, chunk });
      }
      if (!state.closed) this.#post({ type: 'done', id });
    } catch (reason) {
      if (!state.closed) this.#fail(id, reason);
    } finally {
      this.#streams.delete(id);
    }
  }

  #stop(id: number, close: boolean): void {
    const state = this.#streams.get(id);
    // Only a running stream is interrupted; one that ended needs nothing.
    if (!state) return;
    state.closed ||= close;
    state.stopping = true;
    this.#engine?.interruptGenerate();
  }

  async #unload(): Promise<void> {
    const engine = this.#engine;
    this.#engine = undefined;
    await engine?.unload();
  }

  #loaded(): WebLLMEngineLike {
    if (this.#engine) return this.#engine;
    const error = new Error('No model is loaded in this engine worker (it was unloaded, or never loaded).');
    error.name = 'EngineNotLoadedError';
    throw error;
  }
}
