import { InvalidOptionError } from '@inkling/scheduler';
import {
  type Rule,
  durationRule,
  firstProblem,
  isObject,
  isText,
  isTimers,
  mustBe,
  optional,
  unknownKey,
  wholeNumber,
} from '@inkling/scheduler/engine';

/** The options both engines take: the stall bound, where the APIs are, timers. */
const SHARED: readonly Rule[] = [
  durationRule('downloadStallMs'),
  ['globals', optional(isObject), 'an object like globalThis'],
  ['timers', optional(isTimers), 'an object with setTimeout and clearTimeout'],
];

/** `promptEngines`' options, checked in this order. */
export const PROMPT_RULES: readonly Rule[] = [
  ['createOptions', optional(isObject), 'an object for LanguageModel.create()'],
  ['maxSessions', optional(wholeNumber(1)), 'a whole number, 1 or more'],
  ...SHARED,
];

const isPair = (pair: unknown): boolean =>
  isText((pair as { from?: unknown } | null)?.from) && isText((pair as { to?: unknown } | null)?.to);

/** `translatorEngines`' options, checked in this order. */
export const TRANSLATOR_RULES: readonly Rule[] = [
  ['languages', optional((pairs) => Array.isArray(pairs) && pairs.every(isPair)), "an array like [{ from: 'en', to: 'fr' }]"],
  ...SHARED,
];

/**
 * `builtInEngines`' own options; each part's options are checked by its
 * engines (`promptEngines`, `translatorEngines`), and `globals` by both.
 */
export const BUILT_IN_RULES: readonly Rule[] = ['prompt', 'translation'].map((part): Rule => [
  part,
  optional((value) => value === false || isObject(value)),
  'an object, or false for none',
]);

/**
 * Throws an `InvalidOptionError` naming the first option of `options` that no
 * rule and none of `more` names (a typo), or else the first that breaks
 * `rules`, as `` `${factory}() "field" must be …; it got …` ``.
 *
 * @example
 * checkOptions({ maxSessions: 0 }, PROMPT_RULES, 'promptEngines');
 * // throws: promptEngines() "maxSessions" must be a whole number, 1 or more; it got 0.
 */
export function checkOptions(options: unknown, rules: readonly Rule[], factory: string, more?: readonly string[]): void {
  const problem = isObject(options)
    ? (unknownKey(options, rules, `${factory}() `, more) ?? firstProblem(options, rules, `${factory}() `))
    : mustBe(`${factory}() options`, 'an object', options);
  if (problem) throw new InvalidOptionError(problem);
}
