import { InvalidOptionError } from './errors.js';
import { mustBe } from './rules.js';

/**
 * The longest delay a timer honours. `setTimeout` stores its delay in a signed
 * 32-bit integer: anything longer overflows and fires at once.
 */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/** What a duration option must be, in words. */
export const DURATION = `a number of milliseconds from 0 to ${MAX_TIMER_MS} (timers cannot wait longer)`;

/** A duration, or `Infinity` ("never"); left out passes. */
export const isDurationOrNever = (value: unknown): boolean => value === Infinity || isDuration(value);

const isDuration = (value: unknown): boolean =>
  value === undefined || (typeof value === 'number' && value >= 0 && value <= MAX_TIMER_MS);

/**
 * Checks a duration option, in milliseconds: a number from 0 to
 * `MAX_TIMER_MS` (about 24.8 days), or `Infinity` meaning "never" where the
 * option allows it. Throws an `InvalidOptionError` naming the option and what
 * it got; `undefined` (the option left out) passes.
 *
 * @example
 * checkDuration(options.idleTimeoutMs, 'EnginePool "idleTimeoutMs"');
 * checkDuration(options.connectTimeoutMs, 'openaiEngines() "connectTimeoutMs"', { never: false });
 */
export function checkDuration(value: unknown, option: string, { never = true }: { never?: boolean } = {}): void {
  if (!(never ? isDurationOrNever : isDuration)(value)) {
    throw new InvalidOptionError(mustBe(option, never ? `${DURATION}, or Infinity for "never"` : DURATION, value));
  }
}
