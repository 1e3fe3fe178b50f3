import type { Rule } from './rules.js';

/**
 * The first key of `values` that no rule of `rules` and none of `more` names,
 * as a sentence naming `prefix`, the key, a known key close to it (a typo,
 * another case) and every known key; `undefined` when every key is known. A
 * key whose value is `undefined` passes: a spread of optional values
 * (`{ ...defaults, lanes: maybe }`) changes nothing. Rules name top-level
 * fields here (a `params.model` rule does not make `params` known: put it in
 * `more`). Run it before `firstProblem`, so a misspelt required option is
 * named as a typo.
 *
 * @example
 * unknownKey({ lane: 4 }, [['lanes', optional(wholeNumber(1)), 'a whole number, 1 or more']], 'webllmEngines() ', ['gpu']);
 * // 'webllmEngines() has no option "lane" (did you mean "lanes"?): remove or rename it. Its options: lanes, gpu.'
 */
export function unknownKey(values: object, rules: readonly Rule[], prefix: string, more: readonly string[] = []): string | undefined {
  const known = [...new Set(rules.map(([field]) => field).concat(more))];
  for (const key in values) {
    if (known.includes(key) || (values as Record<string, unknown>)[key] === undefined) continue;
    const near = known.find((name) => close(key.toLowerCase(), name.toLowerCase()));
    return `${prefix}has no option "${key}"${near ? ` (did you mean "${near}"?)` : ''}: remove or rename it. Its options: ${known.join(', ')}.`;
  }
  return undefined;
}

/**
 * Whether `b` is `a` with one short stretch changed: past their common start
 * and end, at most a third of `a` (plus 2) differs: `lane`/`lanes`,
 * `veiw`/`view`, `maxRetry`/`maxRetries`, but not `fum`/`fix`.
 */
function close(a: string, b: string): boolean {
  let start = 0;
  let end = 0;
  while (a[start] && a[start] === b[start]) start++;
  // `~end` counts from the last letter: -1, -2...
  while (end < a.length - start && end < b.length - start && a.at(~end) === b.at(~end)) end++;
  return 3 * (Math.max(a.length, b.length) - start - end) <= a.length + 2;
}
