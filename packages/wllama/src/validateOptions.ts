import { InvalidOptionError, checkDuration } from '@inkling/scheduler';
import type { WllamaEnginesOptions } from './types.js';

/**
 * Throws an `InvalidOptionError` naming the first wrong option of `wllamaEngines`.
 *
 * @example
 * validateOptions({ model: 'x.bin', wasmUrl }); // throws: model must be a .gguf URL
 */
export function validateOptions(options: WllamaEnginesOptions): void {
  if (typeof options !== 'object' || options === null) {
    throw new InvalidOptionError(
      "wllamaEngines() takes an options object, e.g. wllamaEngines({ model: defaultCpuModel().url, wasmUrl }).",
    );
  }
  const { model, wasmUrl, contextSize, threads, seed, pooling } = options;
  if (typeof model !== 'string' || !/\.gguf(\?.*)?$/i.test(model)) {
    throw new InvalidOptionError(
      `wllamaEngines() needs "model", the URL of a .gguf file (cpuModelCatalogue lists small ones); it got ${shown(model)}.`,
    );
  }
  if (typeof wasmUrl !== 'string' || wasmUrl === '') {
    throw new InvalidOptionError(
      `wllamaEngines() needs "wasmUrl", the URL your app serves @wllama/wllama/esm/wasm/wllama.wasm at (with Vite: import wasmUrl from '@wllama/wllama/esm/wasm/wllama.wasm?url'); it got ${shown(wasmUrl)}.`,
    );
  }
  if (contextSize !== undefined && !(Number.isInteger(contextSize) && contextSize >= 64 && contextSize <= 131_072)) {
    throw new InvalidOptionError(`wllamaEngines() "contextSize" must be a whole number of tokens from 64 to 131072; it got ${shown(contextSize)}.`);
  }
  if (threads !== undefined && !(Number.isInteger(threads) && threads >= 1 && threads <= 64)) {
    throw new InvalidOptionError(`wllamaEngines() "threads" must be a whole number from 1 to 64; it got ${shown(threads)}.`);
  }
  if (seed !== undefined && !Number.isInteger(seed)) {
    throw new InvalidOptionError(`wllamaEngines() "seed" must be a whole number; it got ${shown(seed)}.`);
  }
  if (pooling !== undefined && !['mean', 'cls', 'last'].includes(pooling)) {
    throw new InvalidOptionError(`wllamaEngines() "pooling" must be 'mean', 'cls' or 'last'; it got ${shown(pooling)}.`);
  }
  checkDuration(options.fetchTimeoutMs, 'wllamaEngines() "fetchTimeoutMs"');
  if (options.fetch !== undefined && typeof options.fetch !== 'function') {
    throw new InvalidOptionError('wllamaEngines() "fetch" must be a function.');
  }
  if (options.sizeBytes !== undefined && !(Number.isSafeInteger(options.sizeBytes) && options.sizeBytes > 0)) {
    throw new InvalidOptionError(`wllamaEngines() "sizeBytes" must be the model file's size, a whole number of bytes above 0; it got ${shown(options.sizeBytes)}.`);
  }
  if (options.sha256 !== undefined && !(typeof options.sha256 === 'string' && /^[0-9a-f]{64}$/i.test(options.sha256))) {
    throw new InvalidOptionError(`wllamaEngines() "sha256" must be the file's SHA-256 as 64 hex digits; it got ${shown(options.sha256)}.`);
  }
  if (options.storage !== undefined && options.storage !== false && (typeof options.storage !== 'object' || options.storage === null)) {
    throw new InvalidOptionError('wllamaEngines() "storage" must be navigator.storage (or a StorageManager like it), or false to keep models in memory only.');
  }
  if (options.loadParams !== undefined && (typeof options.loadParams !== 'object' || options.loadParams === null)) {
    throw new InvalidOptionError('wllamaEngines() "loadParams" must be an object of wllama LoadModelParams, e.g. { n_batch: 512 }.');
  }
}

function shown(value: unknown): string {
  return typeof value === 'string' ? JSON.stringify(value) : String(value);
}
