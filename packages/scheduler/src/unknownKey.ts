import type { Rule } from './rules.js';

/**
 * The first key of `values` that no rule of `rules` and none of `more` names,
 * as a sentence naming `prefix`, the key, the closest known key when one is
 * close (a typo, another case) and every known key; `undefined` when every
 * key is known. A key whose value is `undefined` passes: a spread of optional
 * values (`{ ...defaults, lanes: maybe }`) changes nothing. Run it before
 * `firstProblem`, so a misspelt required option is named as a typo.
 *
 * @example
 * unknownKey({ lane: 4 }, [['lanes', optional(wholeNumber(1)), 'a whole number, 1 or more']], 'webllmEngines() ', ['gpu']);
 * // 'webllmEngines() has no option "lane" (did you mean "lanes"?): remove or rename it. Its options: lanes, gpu.'
 */
export function unknownKey(values: object, rules: readonly Rule[], prefix: string, more: readonly string[] = []): string | undefined {
  // Nested rules (`params.model`) name their top key.
  const known = [...new Set([...rules.map(([field]) => field.split('.')[0] as string), ...more])];
  const key = Object.keys(values).find((name) => !known.includes(name) && (values as Record<string, unknown>)[name] !== undefined);
  if (key === undefined) return undefined;
  let near: string | undefined;
  // Close, case aside: fewer edits than half the key's letters, and at most 2 (3 from 8 letters: "maxRetry").
  let best = Math.min(key.length > 7 ? 4 : 3, (key.length + 1) >> 1);
  for (const name of known) {
    const edits = distance(key.toLowerCase(), name.toLowerCase());
    if (edits < best) [near, best] = [name, edits];
  }
  return `${prefix}has no option ${JSON.stringify(key)}${near ? ` (did you mean "${near}"?)` : ''}: remove or rename it. Its options: ${known.join(', ')}.`;
}

/**
 * Edit distance: the fewest one-letter insertions, deletions, substitutions and
 * swaps of two neighbours ("veiw") from `a` to `b`.
 */
function distance(a: string, b: string): number {
  let before: number[] = [];
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 0; i < a.length; i++) {
    const next = [i + 1];
    for (let j = 0; j < b.length; j++) {
      let edits = Math.min((row[j + 1] as number) + 1, (next[j] as number) + 1, (row[j] as number) + +(a[i] !== b[j]));
      if (i && j && a[i] === b[j - 1] && a[i - 1] === b[j]) edits = Math.min(edits, (before[j - 1] as number) + 1);
      next.push(edits);
    }
    [before, row] = [row, next];
  }
  return row[b.length] as number;
}
