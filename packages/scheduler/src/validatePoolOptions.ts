import { checkDuration } from './duration.js';
import { InvalidOptionError } from './errors.js';
import type { EnginePoolOptions, PoolTimers } from './types.js';

/** `EnginePoolOptions.idleTimeoutMs` when left out. */
export const DEFAULT_IDLE_TIMEOUT_MS = 60_000;

/** `EnginePoolOptions.stallTimeoutMs` when left out (its TSDoc says why). */
export const DEFAULT_STALL_TIMEOUT_MS = 10_000;

/** The platform's timers, looked up when used (so fake timers installed later still apply). */
export const globalTimers: PoolTimers = {
  setTimeout: (callback, ms) => globalThis.setTimeout(callback, ms),
  clearTimeout: (handle) => globalThis.clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/**
 * Checks every option of `new EnginePool()` at once, so a mistake fails where
 * it was made rather than at the first `submit()`. Throws an
 * `InvalidOptionError` that names the first wrong option.
 */
export function validatePoolOptions(options: EnginePoolOptions): void {
  if (typeof options !== 'object' || options === null) {
    throw new InvalidOptionError('new EnginePool() takes an options object, e.g. new EnginePool({ createEngine }).');
  }
  if (typeof options.createEngine !== 'function') {
    throw new InvalidOptionError(
      'EnginePool needs "createEngine", a function that builds an engine, e.g. webllmEngines({ model }) from @inkling/webllm or fakeEngines() from @inkling/scheduler/testing.',
    );
  }
  const { size, historySize, timers } = options;
  if (size !== undefined && !(Number.isInteger(size) && size >= 1 && size <= 4)) {
    throw new InvalidOptionError(
      `EnginePool "size" must be a whole number from 1 to 4 (each engine holds a full copy of the model's weights); it got ${String(size)}.`,
    );
  }
  checkDuration(options.idleTimeoutMs, 'EnginePool "idleTimeoutMs"');
  checkDuration(options.stallTimeoutMs, 'EnginePool "stallTimeoutMs"');
  if (historySize !== undefined && !(Number.isInteger(historySize) && historySize >= 0)) {
    throw new InvalidOptionError(`EnginePool "historySize" must be a whole number, 0 or more; it got ${String(historySize)}.`);
  }
  for (const key of ['onStateChange', 'now', 'scheduleNotify'] as const) {
    if (options[key] !== undefined && typeof options[key] !== 'function') {
      throw new InvalidOptionError(`EnginePool "${key}" must be a function.`);
    }
  }
  if (
    timers !== undefined &&
    (typeof timers !== 'object' || timers === null || typeof timers.setTimeout !== 'function' || typeof timers.clearTimeout !== 'function')
  ) {
    throw new InvalidOptionError(
      'EnginePool "timers" must be an object with setTimeout(callback, ms) and clearTimeout(handle) functions, e.g. { setTimeout: (f, ms) => setTimeout(f, ms), clearTimeout: (h) => clearTimeout(h) }; leave it out to use the global ones.',
    );
  }
}
