import { InvalidOptionError } from './errors.js';
import type { EnginePoolOptions } from './types.js';

/** Throws an `InvalidOptionError` that names the first wrong option. */
export function validatePoolOptions(options: EnginePoolOptions): void {
  if (typeof options !== 'object' || options === null) {
    throw new InvalidOptionError('new EnginePool() takes an options object, e.g. new EnginePool({ createEngine }).');
  }
  if (typeof options.createEngine !== 'function') {
    throw new InvalidOptionError(
      'EnginePool needs "createEngine", a function that builds an engine, e.g. webllmEngines({ model }) from @inkling/webllm or fakeEngines() from @inkling/scheduler/testing.',
    );
  }
  const { size, idleTimeoutMs, historySize } = options;
  if (size !== undefined && !(Number.isInteger(size) && size >= 1 && size <= 4)) {
    throw new InvalidOptionError(
      `EnginePool "size" must be a whole number from 1 to 4 (each engine holds a full copy of the model's weights); it got ${String(size)}.`,
    );
  }
  if (idleTimeoutMs !== undefined && !(typeof idleTimeoutMs === 'number' && idleTimeoutMs >= 0)) {
    throw new InvalidOptionError(`EnginePool "idleTimeoutMs" must be a number of milliseconds, 0 or more; it got ${String(idleTimeoutMs)}.`);
  }
  if (historySize !== undefined && !(Number.isInteger(historySize) && historySize >= 0)) {
    throw new InvalidOptionError(`EnginePool "historySize" must be a whole number, 0 or more; it got ${String(historySize)}.`);
  }
  for (const key of ['onStateChange', 'now', 'scheduleNotify'] as const) {
    if (options[key] !== undefined && typeof options[key] !== 'function') {
      throw new InvalidOptionError(`EnginePool "${key}" must be a function.`);
    }
  }
}
