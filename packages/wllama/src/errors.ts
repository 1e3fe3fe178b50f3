import { EngineLoadError, type ErrorDevice, LoadCancelledError, ModelUnreadableError } from '@inkling/scheduler';

// wllama's own errors. A failure every engine can meet (a download that fails, a file that cannot be
// read, out of memory, a cancelled load, a dead worker) is one of @inkling/scheduler's classes, with
// `device: 'cpu'`.

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

/**
 * @deprecated Use `ModelUnreadableError` from `@inkling/scheduler` (the same class, shared by every
 * engine; `device: 'cpu'` here).
 */
export const ModelLoadError = ModelUnreadableError;
/** @deprecated Use `ModelUnreadableError` from `@inkling/scheduler`. */
export type ModelLoadError = ModelUnreadableError;

/**
 * The `LoadCancelledError` of a wllama load stopped by `pool.unload()` (or its signal): its
 * download is aborted and its worker terminated.
 *
 * @example
 * if (signal?.aborted) throw loadCancelled(name, signal.reason);
 */
export function loadCancelled(model: string, cause: unknown): LoadCancelledError {
  return new LoadCancelledError(`Loading ${model} was cancelled (the pool was unloaded). Call pool.load() to start again.`, {
    device: 'cpu',
    model,
    cause,
  });
}
