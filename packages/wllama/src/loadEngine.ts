import { defaultLocks, defaultStorageManager } from '@inkling/scheduler/storage';
import { globalTimers } from '@inkling/scheduler/engine';
import { LoadCancelledError, type LoadProgress, ModelUnreadableError, StorageUnavailableError } from '@inkling/scheduler';
import { classifyLoadError } from './classifyError.js';
import { WasmMissingError, WasmUnsupportedError, loadCancelled } from './errors.js';
import { fetchModel } from './fetchModel.js';
import { withStoredModel } from './storage/storedModel.js';
import { ProgressReporter } from './progressReporter.js';
import { supportsWasm64 } from './supportsWasm64.js';
import type { WllamaEnginesOptions } from './types.js';
import { type KvShape, kvBytesPerToken } from './kvBytesPerToken.js';
import { DEFAULT_PROMPT_CACHE_LIMIT_MIB, type EngineWorker, WllamaEngine } from './wllamaEngine.js';
import type { WllamaLike } from './wllamaLike.js';
import { WorkerWatch } from './workerWatch.js';

/** What `loadEngine` needs, resolved by `wllamaEngines`. */
export interface LoadEngineRequest {
  options: WllamaEnginesOptions;
  onProgress: (report: LoadProgress) => void;
  signal: AbortSignal | undefined;
}

/** The loaded `Wllama` plus what Inkling reads from it after loading. */
type LoadedWllama = WllamaLike & {
  setCompat(compat: null): void;
  loadModel(blobs: Blob[], params: Record<string, unknown>): Promise<void>;
  getLoadedContextInfo(): LoadedInfo & { success?: boolean };
};

/** What Inkling reads from wllama's `getLoadedContextInfo()` after a load. */
type LoadedInfo = KvShape & { n_ctx: number };

/**
 * Fetches the model (progress in bytes) into the origin's storage, or takes
 * the stored copy once it is checked (see `withStoredModel`), checks that
 * wllama's wasm file is there, starts a wllama worker and loads the model
 * into it; a file llama.cpp refuses is a `ModelUnreadableError`. When `signal`
 * aborts, the download stops, the worker is terminated and this rejects with
 * `LoadCancelledError`; an engine is only handed over if it really loaded.
 *
 * @example
 * const engine = await loadEngine({ options: { model, wasmUrl }, onProgress, signal });
 */
export async function loadEngine(request: LoadEngineRequest): Promise<WllamaEngine> {
  const { options, signal } = request;
  const name = fileName(options.model);
  const cancelled = () => loadCancelled(name, signal?.reason);
  if (signal?.aborted) throw cancelled();
  // Before downloading hundreds of megabytes a browser could not use.
  if (!supportsWasm64()) throw new WasmUnsupportedError();
  const fetcher = options.fetch ?? ((input: string, init: RequestInit) => globalThis.fetch(input, init));
  const reporter = new ProgressReporter(name, request.onProgress, () => performance.now());
  const never = new AbortController().signal;
  // A missing wasm file stops the download at once (what arrived stays stored for the next load).
  const wasmFailed = new AbortController();
  const wasm = checkWasm(options.wasmUrl, signal ?? never);
  wasm.catch(() => wasmFailed.abort());
  const download = {
    url: new URL(options.model, globalThis.location?.href).href,
    fetch: fetcher,
    signal: typeof AbortSignal.any === 'function' ? AbortSignal.any([signal ?? never, wasmFailed.signal]) : (signal ?? never),
    timeoutMs: options.fetchTimeoutMs ?? Number.POSITIVE_INFINITY,
    timers: options.timers ?? globalTimers,
    onBytes: (loaded: number, total: number) => reporter.bytes(loaded, total),
  };
  const start = async (blob: Blob): Promise<WllamaEngine> => {
    await wasm;
    reporter.loading();
    const engine = await startWllama(blob, options, signal, name);
    reporter.ready();
    return engine;
  };
  const storage = options.storage === false ? undefined : (options.storage ?? defaultStorageManager());
  try {
    if (storage !== undefined) {
      try {
        return await withStoredModel(
          {
            ...download,
            name,
            storage,
            locks: defaultLocks(),
            sizeBytes: options.sizeBytes,
            sha256: options.sha256,
            now: () => Date.now(),
          },
          start,
          (error) => error instanceof ModelUnreadableError,
        );
      } catch (error) {
        // No storage in this browser (a private window): download into memory as before.
        if (!(error instanceof StorageUnavailableError)) throw error;
      }
    }
    return await start(await fetchModel(download));
  } catch (error) {
    if (signal?.aborted && !(error instanceof LoadCancelledError)) throw cancelled();
    if (wasmFailed.signal.aborted) await wasm;
    throw error;
  }
}

/** Starts a wllama worker and loads the model into it; an engine is only handed over if it really loaded. */
async function startWllama(
  blob: Blob,
  options: WllamaEnginesOptions,
  signal: AbortSignal | undefined,
  name: string,
): Promise<WllamaEngine> {
  const first = await startWorker(blob, options, signal, name);
  const limitMiB = options.promptCacheLimitMiB ?? DEFAULT_PROMPT_CACHE_LIMIT_MIB;
  const recycle =
    options.embeddings === true || !Number.isFinite(limitMiB)
      ? undefined
      : {
          limitBytes: limitMiB * 1024 * 1024,
          bytesPerToken: kvBytesPerToken(first.info, first.params),
          // The same file again: a stored copy is read from disk, a downloaded one stays in memory for this.
          restart: () => startWorker(blob, options, undefined, name),
        };
  return new WllamaEngine(
    first,
    {
      model: options.model,
      threads: first.threads,
      embeddingWidth: first.info.n_embd,
      contextSize: first.info.n_ctx,
      embeddings: options.embeddings === true,
    },
    recycle,
  );
}

/** A wllama worker with the model loaded, and what was asked of it. */
interface StartedWorker extends EngineWorker {
  info: LoadedInfo;
  params: Record<string, unknown>;
  threads: number;
}

async function startWorker(
  blob: Blob,
  options: WllamaEnginesOptions,
  signal: AbortSignal | undefined,
  name: string,
): Promise<StartedWorker> {
  const { Wllama } = await import('@wllama/wllama');
  if (signal?.aborted) throw loadCancelled(name, signal.reason);
  const watch = new WorkerWatch();
  const quiet = options.verbose !== true;
  const wllama = new Wllama(
    { default: new URL(options.wasmUrl, globalThis.location?.href).href },
    { logger: watch.logger(console, quiet), suppressNativeLog: quiet, allowOffline: true },
  ) as unknown as LoadedWllama;
  // No compatibility build from a CDN: nothing is fetched but the model and the wasm file.
  wllama.setCompat(null);
  const threads = (options.threads ?? 1) > 1 && globalThis.crossOriginIsolated === true ? (options.threads ?? 1) : 1;
  const params: Record<string, unknown> = {
    n_ctx: options.contextSize ?? 2048,
    n_threads: threads,
    n_gpu_layers: 0,
    // One request at a time, so one slot: it keeps the whole context and the previous prompt's cache.
    n_parallel: 1,
    embeddings: options.embeddings === true,
    ...(options.pooling ? { pooling_type: options.pooling } : {}),
    ...(options.seed === undefined ? {} : { seed: options.seed }),
    ...options.loadParams,
  };
  const info = await loadCancellable(wllama, watch, blob, params, signal, name);
  return { wllama, watch, info, params, threads };
}

async function loadCancellable(
  wllama: LoadedWllama,
  watch: WorkerWatch,
  blob: Blob,
  params: Record<string, unknown>,
  signal: AbortSignal | undefined,
  name: string,
): Promise<LoadedInfo> {
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(loadCancelled(name, signal?.reason));
  });
  aborted.catch(() => {});
  signal?.addEventListener('abort', onAbort!, { once: true });
  try {
    await Promise.race([watch.race(wllama.loadModel([blob], params)), aborted]);
    if (signal?.aborted) throw loadCancelled(name, signal.reason);
    // wllama 3.13 resolves loadModel with a failed context (success false, n_ctx 0) for a file llama.cpp refused.
    const info = wllama.getLoadedContextInfo();
    if (info.success === false || !(info.n_ctx > 0)) {
      throw new ModelUnreadableError(
        `llama.cpp could not load ${name}: the file is not a model it can read (corrupt, cut short, or not a GGUF). A stored copy is downloaded again on the next load; if this persists, check the URL.`,
        { device: 'cpu', model: name },
      );
    }
    return info;
  } catch (reason) {
    // Not awaited: the caller hears at once; terminating the worker frees everything.
    void wllama.exit().catch(() => {});
    if (reason instanceof LoadCancelledError) throw reason;
    throw watch.death ?? classifyLoadError(reason, name);
  } finally {
    signal?.removeEventListener('abort', onAbort!);
  }
}

/**
 * Fails with `WasmMissingError` when nothing is served at the wasm URL (a
 * `HEAD` request; the browser caches the file itself when the worker fetches it).
 */
async function checkWasm(url: string, signal: AbortSignal): Promise<void> {
  let response: Response;
  try {
    response = await globalThis.fetch(url, { method: 'HEAD', signal });
  } catch (error) {
    if (signal.aborted) throw signal.reason;
    throw new WasmMissingError(url, 'nothing answered', { cause: error });
  }
  // Some servers refuse HEAD (405); only a missing file is certain.
  if (response.status === 404 || response.status === 410) throw new WasmMissingError(url, `HTTP ${response.status}`);
  const type = response.headers.get('content-type') ?? '';
  if (response.ok && /text\/html/i.test(type))
    throw new WasmMissingError(url, 'the server answered with an HTML page, likely an app fallback');
}

function fileName(url: string): string {
  const path = url.split(/[?#]/)[0] ?? url;
  return path.slice(path.lastIndexOf('/') + 1) || url;
}
