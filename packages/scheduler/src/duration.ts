import { InvalidOptionError } from './errors.js';
import { type Rule, mustBe } from './rules.js';

/**
 * The longest delay a timer honours. `setTimeout` stores its delay in a signed
 * 32-bit integer: anything longer overflows and fires at once.
 */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * The rule for a duration option, in milliseconds: a number from 0 to
 * `MAX_TIMER_MS` (about 24.8 days), `Infinity` meaning "never" where the
 * option allows it (`never`, default `true`), or left out.
 *
 * @example
 * const rules: Rule[] = [durationRule('idleTimeoutMs'), durationRule('resumeDelayMs', { never: false })];
 */
export function durationRule(field: string, { never = true }: { never?: boolean } = {}): Rule {
  return [
    field,
    (value) => value === undefined || (never && value === Infinity) || (typeof value === 'number' && value >= 0 && value <= MAX_TIMER_MS),
    `a number of milliseconds from 0 to ${MAX_TIMER_MS} (timers cannot wait longer)${never ? ', or Infinity for "never"' : ''}`,
  ];
}

/**
 * Checks one duration option by `durationRule`, for an option outside a rule
 * table. Throws an `InvalidOptionError` naming the option and what it got;
 * `undefined` (the option left out) passes.
 *
 * @example
 * checkDuration(options.idleTimeoutMs, 'EnginePool "idleTimeoutMs"');
 * checkDuration(options.connectTimeoutMs, 'openaiEngines() "connectTimeoutMs"', { never: false });
 */
export function checkDuration(value: unknown, option: string, how: { never?: boolean } = {}): void {
  const [, ok, want] = durationRule(option, how);
  if (!ok(value)) throw new InvalidOptionError(mustBe(option, want as string, value));
}
