import type { CreateEngine } from '@inkling/scheduler';
import { loadEngine } from './loadEngine.js';
import type { WllamaEngine, WllamaEnginesOptions } from './types.js';
import { validateOptions } from './validateOptions.js';

/**
 * The `createEngine` of an `EnginePool` whose engines are llama.cpp compiled
 * to WebAssembly (wllama), each in its own worker, on the CPU: the real
 * engine for browsers without WebGPU, and for tests (tiny GGUF models made by
 * `@inkling/wllama/testing` load in a second and decode at tens of tokens a second).
 *
 * Each engine fetches the GGUF file (progress in bytes through the pool's
 * `onProgress`), then loads it into a worker of its own, so every engine holds
 * a copy of the weights: keep the pool small (`size: 1` on phones). It runs
 * one generation at a time; streams WebLLM-shaped chunks with a final usage
 * chunk; `interruptGenerate()` and a call's `signal` end the stream with an
 * `'abort'` chunk. `pool.unload()` during a load stops the download and leaves
 * no worker behind. A worker that dies fails its job with a fatal
 * `WorkerCrashedError`, and the pool builds a new engine. Throws
 * `InvalidOptionError` at once on a wrong option.
 *
 * @example
 * import wasmUrl from '@wllama/wllama/esm/wasm/wllama.wasm?url';
 * const pool = new EnginePool({
 *   createEngine: wllamaEngines({ model: defaultCpuModel().url, wasmUrl }),
 *   size: 1,
 * });
 * await pool.load((p) => console.log(`${p.loadedBytes} of ${p.totalBytes} bytes`));
 */
export function wllamaEngines(options: WllamaEnginesOptions): CreateEngine {
  validateOptions(options);
  const settled = { ...options };
  return (_index, onProgress, loadOptions): Promise<WllamaEngine> =>
    loadEngine({ options: settled, onProgress, signal: loadOptions?.signal });
}
