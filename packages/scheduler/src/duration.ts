import { InvalidOptionError } from './errors.js';
import type { Rule } from './rules.js';

/**
 * The longest delay a timer honours. `setTimeout` stores its delay in a signed
 * 32-bit integer: anything longer overflows and fires at once.
 */
export const MAX_TIMER_MS = 2 ** 31 - 1;

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
  if (value === undefined || (never && value === Infinity)) return;
  if (typeof value === 'number' && value >= 0 && value <= MAX_TIMER_MS) return;
  // Kept apart from the pool's fuller checks: every package's options use this one.
  const got = typeof value === 'string' ? JSON.stringify(value) : typeof value === 'bigint' ? `${value}n` : String(value);
  throw new InvalidOptionError(
    `${option} must be a number of milliseconds from 0 to ${MAX_TIMER_MS} (timers cannot wait longer)${never ? ', or Infinity for "never"' : ''}; it got ${got}.`,
  );
}

/**
 * The rule for a duration option in a rule table: what `checkDuration`
 * accepts, in the same words. (The test and the words are written twice on
 * purpose: `checkDuration` stays free-standing, so an app whose only check is
 * one duration ships no rule table and no `show`.)
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
