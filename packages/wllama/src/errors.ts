import { EngineCrashedError, EngineLoadError, type ErrorDevice, type ErrorKind } from '@inkling/scheduler';

/**
 * The model file could not be fetched: the URL answered with an error status,
 * or nothing answered (offline, CORS, a typo). `url` and `status` (`0` when
 * nothing answered) say which.
 *
 * @example
 * if (pool.getSnapshot().error instanceof ModelFetchError) showMessage('The model could not be downloaded.');
 */
export class ModelFetchError extends EngineLoadError {
  override name = 'ModelFetchError';
  /** `'model-not-found'` for HTTP 404 and 410, else `'network'`. */
  override readonly kind: ErrorKind;
  override readonly retryable: boolean;
  override readonly device: ErrorDevice = 'cpu';
  readonly url: string;
  readonly status: number;

  /** `cut: true` when the connection broke mid-download (what arrived is kept: loading again resumes). */
  constructor(url: string, status: number, options?: { cause?: unknown; cut?: boolean }) {
    const why = status
      ? `it answered HTTP ${status}`
      : 'nothing answered (offline, a wrong host, or the server does not allow this origin: CORS)';
    super(
      options?.cut
        ? `The download of the model file ${url} was cut off (the connection broke). What arrived is kept; load again to fetch the rest.`
        : `The model file ${url} could not be fetched: ${why}. Check the URL (a .gguf file) and that this page may fetch it, then load again.`,
      options?.cause === undefined ? undefined : { cause: options.cause },
    );
    this.url = url;
    this.status = status;
    const gone = status === 404 || status === 410;
    this.kind = gone ? 'model-not-found' : 'network';
    this.retryable = !gone;
  }
}

/**
 * wllama's WebAssembly file (`wllama.wasm`) is not where `wasmUrl` says.
 *
 * @example
 * // Vite: import wasmUrl from '@wllama/wllama/esm/wasm/wllama.wasm?url';
 * wllamaEngines({ model, wasmUrl });
 */
export class WasmMissingError extends EngineLoadError {
  override name = 'WasmMissingError';
  override readonly kind = 'setup';
  override readonly device: ErrorDevice = 'cpu';
  readonly url: string;

  constructor(url: string, detail: string, options?: { cause?: unknown }) {
    super(
      `wllama's WebAssembly file could not be fetched from ${url} (${detail}). Serve @wllama/wllama/esm/wasm/wllama.wasm with your app and pass its URL as "wasmUrl" (with Vite: import wasmUrl from '@wllama/wllama/esm/wasm/wllama.wasm?url').`,
      options,
    );
    this.url = url;
  }
}

/**
 * The model did not fit in the memory WebAssembly can have (4 GB per worker
 * at most, often less on phones).
 *
 * @example
 * if (error instanceof OutOfMemoryError) pickSmallerModel();
 */
export class OutOfMemoryError extends EngineLoadError {
  override name = 'OutOfMemoryError';
  override readonly kind = 'out-of-memory';
  override readonly device: ErrorDevice = 'cpu';

  constructor(model: string, options?: { cause?: unknown }) {
    super(
      `Loading ${model} ran out of memory. Pick a smaller model (see cpuModelCatalogue), a smaller "contextSize", or a pool of one engine (size: 1).`,
      options,
    );
  }
}

/**
 * The model was fetched but llama.cpp could not load it (not a GGUF file, an
 * architecture this wllama does not know, a corrupt download).
 *
 * @example
 * if (error instanceof ModelLoadError) console.warn(error.message);
 */
export class ModelLoadError extends EngineLoadError {
  override name = 'ModelLoadError';
  override readonly kind: ErrorKind = 'file-unreadable';
  override readonly device: ErrorDevice = 'cpu';
}

/**
 * The load was stopped by `pool.unload()` before it finished; its download is
 * aborted and its worker terminated.
 *
 * @example
 * await pool.unload(); // a load in flight rejects with LoadCancelledError
 */
export class LoadCancelledError extends EngineLoadError {
  override name = 'LoadCancelledError';
  override readonly kind = 'cancelled';
  override readonly retryable = true;
  override readonly device: ErrorDevice = 'cpu';

  constructor(model: string, options?: { cause?: unknown }) {
    super(`Loading ${model} was cancelled (the pool was unloaded). Call pool.load() to start again.`, options);
  }
}

/**
 * An engine's worker died (an uncaught error, a WebAssembly abort such as
 * running out of memory mid-generation). Fatal: the pool replaces the engine.
 *
 * @example
 * if (result.error instanceof WorkerCrashedError) console.warn('engine restarted');
 */
export class WorkerCrashedError extends EngineCrashedError {
  override name = 'WorkerCrashedError';
  override readonly device: ErrorDevice = 'cpu';
}

/**
 * This browser's WebAssembly lacks what wllama's build needs (64-bit memory,
 * in Chrome and Edge 133+, Firefox 134+; not yet in Safari). Use WebLLM where
 * WebGPU is present, or send the work to a server with `@inkling/openai`.
 *
 * @example
 * if (error instanceof WasmUnsupportedError) useServerEngines();
 */
export class WasmUnsupportedError extends EngineLoadError {
  override name = 'WasmUnsupportedError';
  override readonly kind = 'no-device';
  override readonly device: ErrorDevice = 'cpu';

  constructor(options?: { cause?: unknown }) {
    super(
      "This browser's WebAssembly cannot run llama.cpp's build (it lacks 64-bit memory, memory64: Chrome or Edge 133+ and Firefox 134+ have it). Use WebLLM where WebGPU is present, or a server engine (@inkling/openai).",
      options,
    );
  }
}
