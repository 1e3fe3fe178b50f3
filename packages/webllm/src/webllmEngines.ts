import { type CreateEngine, type Engine, InvalidOptionError } from '@inkling/scheduler';
import { createDefaultWorker } from './defaultWorker.js';
import { type GPULike, type WebGPUSupport, detectWebGPU } from './detectWebGPU.js';
import { LoadCancelledError, ModelNotFoundError, ShaderF16UnsupportedError, WebGPUUnavailableError } from './errors.js';
import { loadEngine } from './loadEngine.js';
import { f32Variant, findModel, needsShaderF16 } from './modelCatalogue.js';
import type { CacheBackend, WebLLMAppConfig, WebLLMModelRecord, WorkerFactory } from './types.js';

/** Options of `webllmEngines`. */
export interface WebLLMEnginesOptions {
  /** The `model_id` to load: a prebuilt one, or one of `appConfig.model_list`. Required. */
  model: string;
  /** Models and cache settings. Default: WebLLM's `prebuiltAppConfig` (read in the worker). */
  appConfig?: WebLLMAppConfig;
  /**
   * Where downloaded weights are kept. Written to both `cacheBackend` (WebLLM
   * 0.2.83+) and `useIndexedDBCache` (before). Default: what `appConfig` says,
   * else `'cache'` (the Cache API).
   */
  cache?: CacheBackend;
  /**
   * More of WebLLM's `MLCEngineConfig` (e.g. `logLevel`). `appConfig` and
   * `initProgressCallback` are Inkling's. Default: none.
   */
  engineConfig?: Record<string, unknown>;
  /** WebLLM `ChatOptions` overriding the model's `mlc-chat-config.json`. Default: none. */
  chatOptions?: Record<string, unknown>;
  /**
   * Builds the worker for engine number `index`. Default: a module worker
   * running `@inkling/webllm/worker` (see `createDefaultWorker`).
   */
  worker?: WorkerFactory;
  /**
   * The WebGPU entry point checked before a worker is started (adapter present,
   * `shader-f16` for f16 models). `null` skips the check, for hosts where only
   * the workers have WebGPU. Default: `navigator.gpu`, looked up on first load.
   */
  gpu?: GPULike | null;
}

/**
 * The `createEngine` of an `EnginePool` whose engines are WebLLM engines, each
 * in its own Web Worker: the page never janks while tokens stream, and since
 * WebLLM's decode loop is bound to its JavaScript thread, a second engine only
 * adds throughput on a thread of its own. WebLLM itself lives only in the
 * workers: the page talks to them in a few small messages and never
 * downloads it.
 *
 * Before the first worker starts it checks WebGPU, and refuses an f16 model on
 * an adapter without `shader-f16` (`ShaderF16UnsupportedError` names the f32
 * build). Load progress reaches the pool as one overall fraction. An engine
 * whose worker dies or whose GPU device is lost fails with a fatal error, so
 * the pool replaces it. `pool.unload()` during a load stops it and leaves no
 * worker behind.
 *
 * @example
 * const pool = new EnginePool({
 *   createEngine: webllmEngines({ model: defaultModel('ghostText') }),
 *   size: 2,
 * });
 * await pool.load((p) => console.log(Math.round(p.progress * 100), p.text));
 */
export function webllmEngines(options: WebLLMEnginesOptions): CreateEngine {
  validate(options);
  const makeWorker = options.worker ?? createDefaultWorker;
  let gpuCheck: Promise<WebGPUSupport> | undefined;

  return async (index, onProgress, loadOptions): Promise<Engine> => {
    const signal = loadOptions?.signal;
    const { model } = options;
    if (signal?.aborted) throw new LoadCancelledError(model, { cause: signal.reason });
    const record = modelRecord(options);
    if (options.gpu !== null) {
      gpuCheck ??= detectWebGPU({ gpu: options.gpu });
      const gpu = await gpuCheck;
      if (!gpu.supported) throw new WebGPUUnavailableError(gpu.reason ?? 'no adapter.');
      if (needsShaderF16(record) && !gpu.shaderF16) throw new ShaderF16UnsupportedError(model, f32Variant(model));
    }
    if (signal?.aborted) throw new LoadCancelledError(model, { cause: signal.reason });
    return loadEngine({
      model,
      record,
      appConfig: options.appConfig,
      cache: options.cache,
      engineConfig: options.engineConfig ?? {},
      chatOptions: options.chatOptions,
      worker: makeWorker(index),
      onProgress,
      signal,
    });
  };
}

/**
 * The model's record as far as the page knows it: from the `appConfig` given
 * (an unknown id is refused here), else WebLLM's prebuilt list, which only the
 * worker holds: the id and the catalogue's size stand in for it (enough to
 * check `shader-f16` and to word an out-of-memory error).
 */
function modelRecord(options: WebLLMEnginesOptions): WebLLMModelRecord {
  const { model, appConfig } = options;
  if (appConfig) {
    const record = appConfig.model_list.find((r) => r.model_id === model);
    if (!record) throw new ModelNotFoundError(model);
    return record;
  }
  const known = findModel(model);
  return { model_id: model, model: '', model_lib: '', vram_required_MB: known?.vramRequiredMB };
}

function validate(options: WebLLMEnginesOptions): void {
  if (typeof options !== 'object' || options === null || typeof options.model !== 'string' || !options.model) {
    throw new InvalidOptionError(
      'webllmEngines() needs the model to load, e.g. webllmEngines({ model: "Qwen2.5-0.5B-Instruct-q4f32_1-MLC" }). modelCatalogue and defaultModel() list good ones.',
    );
  }
  if (options.worker !== undefined && typeof options.worker !== 'function') {
    throw new InvalidOptionError('webllmEngines() "worker" must be a function (index) => Worker.');
  }
  if ((options as { webllm?: unknown }).webllm !== undefined) {
    throw new InvalidOptionError(
      'webllmEngines() no longer takes a "webllm" module: WebLLM runs in the engine worker only, so the page never downloads it. To pick its version, make a worker file that calls hostWebLLM(globalThis, { MLCEngine, prebuiltAppConfig }) with that version\'s exports, and pass it as the `worker` option.',
    );
  }
  if (options.appConfig !== undefined && !Array.isArray(options.appConfig?.model_list)) {
    throw new InvalidOptionError('webllmEngines() "appConfig" must have a model_list array, like WebLLM\'s AppConfig.');
  }
}
