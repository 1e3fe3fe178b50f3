/**
 * True when a cut of `text` at `at` would leave half a surrogate pair (half
 * an emoji, say) on each side.
 *
 * @example
 * splitsPair('a😀b', 2); // true
 * splitsPair('a😀b', 3); // false
 */
export function splitsPair(text: string, at: number): boolean {
  // The code unit before the cut is a high surrogate and the one after it a low one.
  return at > 0 && /^[\uD800-\uDBFF][\uDC00-\uDFFF]$/.test(text.slice(at - 1, at + 1));
}
