import { InvalidOptionError } from '@inkling/scheduler';
import {
  type Rule,
  durationRule,
  firstProblem,
  isFunction,
  isObject,
  oneOf,
  optional,
  unknownKey,
  wholeNumber,
} from '@inkling/scheduler/engine';
import type { WllamaEnginesOptions } from './types.js';

const isGgufUrl = (value: unknown): boolean => typeof value === 'string' && /\.gguf(\?.*)?$/i.test(value);

/** `wllamaEngines`' options, checked in this order. */
const RULES: readonly Rule[] = [
  ['model', isGgufUrl, 'the URL of a .gguf file (cpuModelCatalogue lists small ones)'],
  [
    'wasmUrl',
    (value) => typeof value === 'string' && value !== '',
    "the URL your app serves @wllama/wllama/esm/wasm/wllama.wasm at (with Vite: import wasmUrl from '@wllama/wllama/esm/wasm/wllama.wasm?url')",
  ],
  ['contextSize', optional(wholeNumber(64, 131_072)), 'a whole number of tokens from 64 to 131072'],
  ['threads', optional(wholeNumber(1, 64)), 'a whole number from 1 to 64'],
  ['seed', optional(wholeNumber(-Infinity)), 'a whole number'],
  ['pooling', optional(oneOf('mean', 'cls', 'last')), "'mean', 'cls' or 'last'"],
  ['fetch', optional(isFunction), 'a function'],
  ['loadParams', optional(isObject), 'an object of wllama LoadModelParams, e.g. { n_batch: 512 }'],
  [
    'sizeBytes',
    optional((value) => Number.isSafeInteger(value) && (value as number) > 0),
    "the model file's size, a whole number of bytes above 0",
  ],
  ['sha256', optional((value) => typeof value === 'string' && /^[0-9a-f]{64}$/i.test(value)), "the file's SHA-256 as 64 hex digits"],
  [
    'storage',
    optional((value) => value === false || isObject(value)),
    'navigator.storage (or a StorageManager like it), or false to keep models in memory only',
  ],
  durationRule('fetchTimeoutMs'),
  [
    'promptCacheLimitMiB',
    optional((value) => value === Number.POSITIVE_INFINITY || (typeof value === 'number' && Number.isFinite(value) && value >= 1)),
    'a number of MiB of at least 1, or Infinity to never restart the worker',
  ],
];

/** `wllamaEngines`' options no rule checks. */
const MORE = ['embeddings', 'verbose', 'timers'];

/**
 * Throws an `InvalidOptionError` naming the first unknown or wrong option of `wllamaEngines`.
 *
 * @example
 * validateOptions({ model: 'x.bin', wasmUrl }); // throws: "model" must be the URL of a .gguf file...
 */
export function validateOptions(options: WllamaEnginesOptions): void {
  if (typeof options !== 'object' || options === null) {
    throw new InvalidOptionError('wllamaEngines() takes an options object, e.g. wllamaEngines({ model: defaultCpuModel().url, wasmUrl }).');
  }
  const problem = unknownKey(options, RULES, 'wllamaEngines() ', MORE) ?? firstProblem(options, RULES, 'wllamaEngines() ');
  if (problem) throw new InvalidOptionError(problem);
}
