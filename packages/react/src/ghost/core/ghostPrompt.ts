import type { ChatCompletionRequest } from '@inkling/scheduler';
import { promptWindow } from './promptWindow.js';

export type { GhostContext } from './ghostContext.js';
import type { GhostContext } from './ghostContext.js';

/** What `buildParams` of `useGhostText` is given. */
export interface GhostParamsInput extends GhostContext {
  /** The `maxTokens` option. */
  readonly maxTokens: number;
}

// Never built from the input: the system prompt is the same bytes on every keystroke, the first thing a prefix cache keeps.
const SYSTEM_PROMPT =
  'You are the autocomplete of a text editor. ' +
  'You get the text after the cursor, if any, then the text before the cursor, which ends where the cursor is. ' +
  'Reply with only the text to insert at the cursor, so that it continues the text before the cursor naturally and fits the text after it: a few words, at most the rest of the sentence. ' +
  'Never repeat text you were given. No quotes, no explanations. ' +
  'If the cursor is inside a word, start with the rest of that word; if the next word needs a space before it, start with a space.';

/**
 * The default request of `useGhostText`: asks a chat model to continue the
 * text before the caret, knowing the text after it, in at most `maxTokens`
 * tokens at temperature 0.
 *
 * Built for engines that reuse the longest common prefix of the previous
 * request (llama.cpp's server, wllama, vLLM's prefix caching): the system
 * prompt never changes, the text after the caret comes first (as
 * fill-in-the-middle prompts put it) and the text before it last, from a
 * start that moves only in whole blocks (see `promptWindow`). So a keystroke
 * changes only the prompt's last few characters and the engine prefills
 * those alone. No cut splits a character.
 *
 * @example
 * pool.submit({ params: defaultGhostParams({ before: 'Dear Sam, thank', after: '', maxTokens: 24 }) });
 */
export function defaultGhostParams(input: GhostParamsInput): ChatCompletionRequest {
  const { head, tail } = promptWindow(input);
  // What changes as a person types (the end of `head`) comes last.
  const afterCursor = tail.trim() ? `<after_cursor>${tail}</after_cursor>\n` : '';
  return {
    messages: [
      { role: 'system', content: SYSTEM_PROMPT },
      { role: 'user', content: `${afterCursor}<before_cursor>${head}</before_cursor>` },
    ],
    max_tokens: input.maxTokens,
    temperature: 0,
  };
}

const WORD_CHAR = /[\p{L}\p{N}]/u;
/** Two letters or digits (a word, or two CJK characters), anywhere. */
const TWO_WORD_CHARS = /[\p{L}\p{N}].*[\p{L}\p{N}]/su;
const BREAK_CHAR = /[\s\p{P}\p{S}]/u;
/** Scripts written without spaces: any character of them starts a word. */
const NO_SPACE_SCRIPT = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}]/u;

/**
 * Length of the longest start of `out` that `before` ends with, when that
 * stretch of `before` starts a word: the model repeating the last words, or
 * the half-typed word, before continuing.
 */
function repeatedTail(before: string, out: string): number {
  for (let k = Math.min(before.length, out.length); k > 0; k -= 1) {
    const piece = out.slice(0, k);
    if (!before.endsWith(piece) || !WORD_CHAR.test(piece)) continue;
    const start = before.length - k;
    const previous = before[start - 1] ?? ' ';
    const startsWord = BREAK_CHAR.test(previous) || BREAK_CHAR.test(piece[0] ?? '');
    const spaceless = NO_SPACE_SCRIPT.test(previous) && TWO_WORD_CHARS.test(piece);
    if (startsWord || spaceless) return k;
  }
  return 0;
}

/** Where `out` starts to repeat the text after the caret, or `out.length`. */
function repeatedAfter(out: string, after: string): number {
  const next = after.trimStart().slice(0, 24);
  if (!TWO_WORD_CHARS.test(next)) return out.length;
  const whole = out.indexOf(next);
  if (whole >= 0) return whole;
  // A trailing start of it, while it streams or when the reply ends on it.
  for (let k = Math.min(next.length - 1, out.length); k >= 4; k -= 1) {
    if (out.endsWith(next.slice(0, k))) return out.length - k;
  }
  return out.length;
}

/**
 * Turns a model's raw reply into the text to insert at the caret: drops an
 * echo of the text before the caret (whole, or its last words), cuts where it
 * starts repeating the text after it, and avoids a double space. While the
 * reply streams (`final` false) a start that may still turn into an echo is
 * held back rather than shown and then taken away.
 *
 * @example
 * stripRepetition('brown fox jumps', { before: 'The quick brown', after: '' }, true); // ' fox jumps'
 */
export function stripRepetition(raw: string, { before, after }: GhostContext, final: boolean): string {
  let out = raw;
  if (before.trim()) {
    if (out.startsWith(before)) out = out.slice(before.length);
    else if (!final && before.startsWith(out)) return '';
    const tail = repeatedTail(before, out);
    if (tail === out.length && !final) return '';
    out = out.slice(tail);
  }
  if (after) {
    const cut = repeatedAfter(out, after);
    if (cut < out.length) out = /^\s/.test(after) ? out.slice(0, cut).trimEnd() : out.slice(0, cut);
  }
  if (/\s$/.test(before) || before === '') out = out.trimStart();
  return out;
}
