/**
 * How deep objects and arrays may nest in JSON the kit reads from a model (an
 * answer, a tool call's arguments) or checks against a schema: 64 levels.
 * Deeper input is refused with a typed error before anything recursive reads
 * it, so no answer can exhaust the stack.
 */
export const MAX_JSON_DEPTH = 64;

/**
 * How deep the objects and arrays of a JSON text nest, counted in one pass
 * without recursion and without parsing (brackets inside strings do not
 * count), so a text from an untrusted source can be refused before
 * `JSON.parse` and whatever walks its value. Works on a text cut short too.
 *
 * @example
 * jsonDepth('{"a": [1, [2]]}'); // 3
 * jsonDepth('"[[["');           // 0
 */
export function jsonDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i += 1) {
    const char = text.charCodeAt(i);
    if (inString) {
      if (char === 0x5c) i += 1; // a backslash: the next character is escaped
      else if (char === 0x22) inString = false;
    } else if (char === 0x22) {
      inString = true;
    } else if (char === 0x7b || char === 0x5b) {
      depth += 1;
      if (depth > deepest) deepest = depth;
    } else if (char === 0x7d || char === 0x5d) {
      depth -= 1;
    }
  }
  return deepest;
}
