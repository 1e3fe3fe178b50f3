import type { LoadProgress } from '@inkling/scheduler';
import { classifyLoadError } from './classifyError.js';
import { LoadCancelledError, WasmMissingError, WasmUnsupportedError } from './errors.js';
import { fetchModel } from './fetchModel.js';
import { ProgressReporter } from './progressReporter.js';
import { supportsWasm64 } from './supportsWasm64.js';
import type { WllamaEnginesOptions } from './types.js';
import { WllamaEngine } from './wllamaEngine.js';
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
  getLoadedContextInfo(): { n_embd: number; n_ctx: number };
};

/**
 * Fetches the model (progress in bytes), checks that wllama's wasm file is
 * there, starts a wllama worker and loads the model into it. When `signal`
 * aborts, the download stops, the worker is terminated and this rejects with
 * `LoadCancelledError`; an engine is only handed over if it really loaded.
 *
 * @example
 * const engine = await loadEngine({ options: { model, wasmUrl }, onProgress, signal });
 */
export async function loadEngine(request: LoadEngineRequest): Promise<WllamaEngine> {
  const { options, signal } = request;
  const name = fileName(options.model);
  const cancelled = () => new LoadCancelledError(name, { cause: signal?.reason });
  if (signal?.aborted) throw cancelled();
  // Before downloading hundreds of megabytes a browser could not use.
  if (!supportsWasm64()) throw new WasmUnsupportedError();
  const fetcher = options.fetch ?? ((input: string, init: RequestInit) => globalThis.fetch(input, init));
  const reporter = new ProgressReporter(name, request.onProgress, () => performance.now());
  const never = new AbortController().signal;
  let blob: Blob;
  try {
    [blob] = await Promise.all([
      fetchModel({
        url: options.model,
        fetch: fetcher,
        signal: signal ?? never,
        timeoutMs: options.fetchTimeoutMs ?? Number.POSITIVE_INFINITY,
        onBytes: (loaded, total) => reporter.bytes(loaded, total),
      }),
      checkWasm(options.wasmUrl, signal ?? never),
    ]);
  } catch (error) {
    if (signal?.aborted) throw cancelled();
    throw error;
  }
  reporter.loading();
  const { Wllama } = await import('@wllama/wllama');
  if (signal?.aborted) throw cancelled();
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
  await loadCancellable(wllama, watch, blob, params, signal, name);
  const info = wllama.getLoadedContextInfo();
  reporter.ready();
  return new WllamaEngine(wllama, watch, {
    model: options.model,
    threads,
    embeddingWidth: info.n_embd,
    contextSize: info.n_ctx,
    embeddings: options.embeddings === true,
  });
}

async function loadCancellable(
  wllama: LoadedWllama,
  watch: WorkerWatch,
  blob: Blob,
  params: Record<string, unknown>,
  signal: AbortSignal | undefined,
  name: string,
): Promise<void> {
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(new LoadCancelledError(name, { cause: signal?.reason }));
  });
  aborted.catch(() => {});
  signal?.addEventListener('abort', onAbort!, { once: true });
  try {
    await Promise.race([watch.race(wllama.loadModel([blob], params)), aborted]);
    if (signal?.aborted) throw new LoadCancelledError(name, { cause: signal.reason });
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
  if (response.ok && /text\/html/i.test(type)) throw new WasmMissingError(url, 'the server answered with an HTML page, likely an app fallback');
}

function fileName(url: string): string {
  const path = url.split(/[?#]/)[0] ?? url;
  return path.slice(path.lastIndexOf('/') + 1) || url;
}
