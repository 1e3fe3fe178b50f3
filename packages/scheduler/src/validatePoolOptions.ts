import { durationRule } from './duration.js';
import { InvalidOptionError } from './errors.js';
import { type Rule, firstProblem, isFunction, isObject, isBoolean, isTimers, mustBe, oneOf, optional, wholeNumber } from './rules.js';
import { POOL_SCHEDULES } from './fifoPolicy.js';
import { unknownKey } from './unknownKey.js';

/** `EnginePoolOptions.idleTimeoutMs` when left out. */
export const DEFAULT_IDLE_TIMEOUT_MS = 60_000;

/** `EnginePoolOptions.stallTimeoutMs` when left out (its TSDoc says why). */
export const DEFAULT_STALL_TIMEOUT_MS = 10_000;

/** `EnginePoolOptions.resumeDelayMs` when left out (its TSDoc says why). */
export const DEFAULT_RESUME_DELAY_MS = 1000;

const RULES: readonly Rule[] = [
  ['createEngine', isFunction, 'a function that builds engines, e.g. webllmEngines({ model }) from @inkling/webllm'],
  ['size', optional(wholeNumber(1, 4)), 'a whole number from 1 to 4 (each engine is a full copy of the model)'],
  ['growWhenLanesFull', optional(isBoolean), 'true or false'],
  ['schedule', optional(oneOf(...POOL_SCHEDULES)), "'priority' or 'fifo'"],
  ['historySize', optional(wholeNumber(0)), 'a whole number, 0 or more'],
  ...['onStateChange', 'now', 'scheduleNotify'].map((field): Rule => [field, optional(isFunction), 'a function']),
  ['timers', optional(isTimers), 'an object with setTimeout(callback, ms) and clearTimeout(handle), or left out'],
  durationRule('idleTimeoutMs'),
  durationRule('stallTimeoutMs'),
  durationRule('resumeDelayMs', { never: false }),
];

/**
 * Checks every option of `new EnginePool()` at once, so a mistake fails where
 * it was made rather than at the first `submit()`. Throws an
 * `InvalidOptionError` that names the first wrong option, or an option it
 * does not take (a typo: `sise`).
 */
export function validatePoolOptions(options: unknown): void {
  const problem = isObject(options)
    ? (unknownKey(options, RULES, 'EnginePool ') ?? firstProblem(options, RULES, 'EnginePool '))
    : mustBe('new EnginePool() options', 'an object, e.g. { createEngine }', options);
  if (problem) throw new InvalidOptionError(problem);
}

/** Throws an `InvalidOptionError` unless `schedule` is `'priority'` or `'fifo'`. */
export function checkSchedule(schedule: unknown, where: string): void {
  if (!POOL_SCHEDULES.includes(schedule as never)) throw new InvalidOptionError(mustBe(where, "'priority' or 'fifo'", schedule));
}
