/**
 * Table-driven checks of user input: each rule names a field, the test its
 * value must pass and what it must be, in words, and every failure reads the
 * same way: `<field> must be <what>; it got <value>.`
 */

/**
 * A field (dotted for nested ones), the test its value must pass, and what it
 * must be. Where the value must not be shown (a key, a header) or the
 * sentence is not "must be", `want` is a function giving the words after the
 * field's name instead.
 *
 * @example
 * const rules: Rule[] = [
 *   ['size', wholeNumber(1, 4), 'a whole number from 1 to 4'],
 *   ['apiKey', optional(isString), () => 'must be a string.'],
 * ];
 */
export type Rule = readonly [field: string, ok: (value: unknown) => boolean, want: string | ((value: unknown) => string)];

export const isFunction = (value: unknown): boolean => typeof value === 'function';
export const isObject = (value: unknown): value is object => typeof value === 'object' && value !== null;
export const isText = (value: unknown): boolean => typeof value === 'string' && value !== '';
export const isString = (value: unknown): value is string => typeof value === 'string';
export const isBoolean = (value: unknown): boolean => typeof value === 'boolean';

/**
 * One of `values` (compared with `===`).
 *
 * @example
 * ['fim', optional(oneOf('completions', 'infill')), "'completions' or 'infill'"];
 */
export const oneOf =
  (...values: readonly unknown[]) =>
  (value: unknown): boolean =>
    values.includes(value);

/**
 * An object with `setTimeout` and `clearTimeout` functions, like `PoolTimers`.
 *
 * @example
 * ['timers', optional(isTimers), 'an object with setTimeout and clearTimeout functions'];
 */
export const isTimers = (value: unknown): boolean =>
  isFunction((value as { setTimeout?: unknown } | null)?.setTimeout) &&
  isFunction((value as { clearTimeout?: unknown } | null)?.clearTimeout);

/**
 * `ok`, or left out.
 *
 * @example
 * ['model', optional((v) => typeof v === 'string'), 'a model id'];
 */
export const optional =
  (ok: (value: unknown) => boolean) =>
  (value: unknown): boolean =>
    value === undefined || ok(value);

/**
 * A whole number from `min` to `max` (default: no upper bound).
 *
 * @example
 * wholeNumber(1, 4)(2); // true
 */
export const wholeNumber =
  (min: number, max = Infinity) =>
  (value: unknown): boolean =>
    Number.isInteger(value) && (value as number) >= min && (value as number) <= max;

/**
 * The first rule `values` breaks, as a sentence naming `${prefix}"field"`;
 * `undefined` when every rule passes.
 *
 * @example
 * firstProblem({ size: 9 }, [['size', wholeNumber(1, 4), 'a whole number from 1 to 4']], 'EnginePool ');
 * // 'EnginePool "size" must be a whole number from 1 to 4; it got 9.'
 */
export function firstProblem(values: object, rules: readonly Rule[], prefix: string): string | undefined {
  for (const [field, ok, want] of rules) {
    // Nested fields (only `params.*`) are few; the common case allocates nothing.
    const value = field.includes('.')
      ? field.split('.').reduce<unknown>((parent, key) => (parent as Record<string, unknown> | undefined)?.[key], values)
      : (values as Record<string, unknown>)[field];
    if (!ok(value)) return typeof want === 'string' ? mustBe(`${prefix}"${field}"`, want, value) : `${prefix}"${field}" ${want(value)}`;
  }
  return undefined;
}

/**
 * The one sentence every bad input gets.
 *
 * @example
 * mustBe('wllamaEngines() "threads"', 'a whole number from 1 to 16', 0);
 * // 'wllamaEngines() "threads" must be a whole number from 1 to 16; it got 0.'
 */
export function mustBe(subject: string, want: string, value: unknown): string {
  return `${subject} must be ${want}; it got ${show(value)}.`;
}

/**
 * A short, readable rendering of any value for a message (60 characters at most).
 *
 * @example
 * show('x'); // '"x"'
 * show(() => 1); // 'a function'
 */
export function show(value: unknown): string {
  if (typeof value === 'function') return 'a function';
  if (typeof value === 'bigint') return `${value}n`;
  try {
    // Numbers as String does: JSON would print NaN and Infinity as null.
    const text = typeof value === 'object' || typeof value === 'string' ? JSON.stringify(value) : String(value);
    return text.length > 60 ? `${text.slice(0, 57)}...` : text;
  } catch {
    // A cycle, or a toJSON that gives nothing.
    return Object.prototype.toString.call(value);
  }
}
