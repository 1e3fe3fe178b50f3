import type { CreateEngine, Engine, PoolTimers } from '@inkling/scheduler';
import { defaultLocks, defaultStorageManager } from '@inkling/scheduler/storage';
import { createDefaultWorker } from './defaultWorker.js';
import type { GPULike } from '../detectWebGPU.js';
import { WebGPUUnavailableError, loadCancelled } from '../errors.js';
import { loadEngine } from './loadEngine.js';
import { validateOptions } from './validateOptions.js';
import { NO_WEBGPU } from '../noWebGPU.js';
import type { CacheBackend, WebLLMAppConfig, WorkerFactory } from '../types.js';
import { type WebLLMStorageOptions, withModelRoom } from '../storage/webllmRoom.js';

/** Options of `webllmEngines`. */
export interface WebLLMEnginesOptions extends WebLLMStorageOptions {
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
   * The page's `navigator.gpu`, or `null` to skip the WebGPU checks. Where
   * the page has none, a load fails at once with `WebGPUUnavailableError`,
   * before any worker starts or anything downloads. The adapter and
   * `shader-f16` checks happen in each engine worker, on the WebGPU it runs
   * on (a worker of your own may hand `hostWebLLM` another); `null` skips
   * those too, and WebLLM's own failure is then the error. Give a `GPULike`
   * where the page has WebGPU by other means (Node with Dawn). Default:
   * `navigator.gpu`.
   */
  gpu?: GPULike | null;
  /**
   * Whether each engine keeps the KV cache's longest common token prefix
   * between requests and prefills only the rest: a ghost-text keystroke at
   * the end of a long note reads a few tokens instead of the whole prompt,
   * and the usage says how many came from the cache (`cachedTokens`). Where
   * the model or the WebLLM version cannot (a sliding window, a runtime
   * without `kv_state_popn`, a WebLLM the worker was not written for), the
   * engine resets per request as WebLLM does, and the load log says why.
   * Default: `true`.
   */
  prefixReuse?: boolean;
  /**
   * How many jobs each engine runs at once on its one copy of the weights,
   * whatever their band: its lanes, sequences of one paged KV cache that
   * advance together in one `batch_decode` step. The engine opens one
   * sequence more, kept for interactive work: the pool sees `lanes + 1` as
   * the engine's `concurrency` and keeps an engine's last free lane for an
   * `interactive` job, so `lanes: 8` runs 8 translation items at once and a
   * ghost-text keystroke still finds a lane (a sequence holds KV pages only
   * while it has tokens; the cache is sized for every lane's full context
   * window). The pool fills an engine's lanes before it loads another.
   * Where the model library has no `batch_decode` or the WebLLM version is
   * not one the worker knows (0.2.79, 0.2.86), the engine runs one generation
   * at a time as WebLLM does, and the load log says why. Jobs with a JSON
   * schema run on WebLLM's own one-sequence path, one at a time. `1` turns
   * lanes off. Default: `4`.
   *
   * @example
   * webllmEngines({ model: 'Qwen2-0.5B-Instruct-q4f32_1-MLC', lanes: 8 }); // 8 jobs at once, and a lane for ghost text
   */
  lanes?: number;
  /**
   * The timers of the worker handshake's timeout and of the unload's grace
   * period. Default: the platform's (`globalTimers`).
   */
  timers?: PoolTimers;
}

/**
 * The `createEngine` of an `EnginePool` whose engines are WebLLM engines, each
 * in its own Web Worker: the page never janks while tokens stream, and since
 * WebLLM's decode loop is bound to its JavaScript thread, a second engine only
 * adds throughput on a thread of its own. WebLLM itself lives only in the
 * workers, and so does what needs its knowledge: the page talks to them in a
 * few small messages and never downloads it.
 *
 * Before WebLLM loads, the worker checks WebGPU and refuses an f16 model on
 * an adapter without `shader-f16` (`ShaderF16UnsupportedError` names the f32
 * build); WebLLM's errors reach the page typed (`ModelNotFoundError`,
 * `ModelFetchError`, `OutOfMemoryError`...). Load progress reaches the pool as
 * one overall fraction. A model not yet whole in the cache is checked
 * against the free space before any weight is fetched (`NotEnoughStorageError`)
 * and downloaded by one tab at a time (a Web Lock per model; the README's
 * "Stored models" says what the page can check). An engine
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
  validateOptions(options);
  const makeWorker = options.worker ?? createDefaultWorker;

  return async (index, onProgress, loadOptions): Promise<Engine> => {
    const signal = loadOptions?.signal;
    const { model } = options;
    if (signal?.aborted) throw loadCancelled(model, signal.reason);
    // A page without WebGPU has workers without it too: say so before the worker's download.
    const gpu = options.gpu === undefined ? (globalThis.navigator as { gpu?: GPULike } | undefined)?.gpu : options.gpu;
    if (options.gpu !== null && !gpu) throw new WebGPUUnavailableError(NO_WEBGPU);
    const load = () =>
      loadEngine({
        model,
        appConfig: options.appConfig,
        cache: options.cache,
        engineConfig: options.engineConfig ?? {},
        chatOptions: options.chatOptions,
        checkWebGPU: options.gpu !== null,
        prefixReuse: options.prefixReuse !== false,
        lanes: options.lanes ?? DEFAULT_LANES,
        ...(options.timers ? { timers: options.timers } : {}),
        worker: makeWorker(index),
        onProgress,
        signal,
      });
    const { appConfig, cache, sizeBytes } = options;
    const storage = options.storage ?? defaultStorageManager();
    return withModelRoom({ model, appConfig, cache, sizeBytes, storage, locks: defaultLocks(), fetch: undefined, signal }, load);
  };
}

/** Lanes per engine unless `lanes` says otherwise: ghost text, a translation and two more jobs at once. */
const DEFAULT_LANES = 4;
