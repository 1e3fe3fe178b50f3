import type { InklingError } from '@inkling/scheduler';
import type { GhostContext } from './ghostPrompt.js';
import { nextWord } from './nextWord.js';

/**
 * `idle`: nothing to show. `queued`: waiting out the debounce or for the
 * engine. `streaming`: the suggestion is arriving. `done`: it is complete.
 * (The same words as every hook's `status`.)
 */
export type GhostTextStatus = 'idle' | 'queued' | 'streaming' | 'done' | 'error';

/** What a ghost-text session shows. */
export interface GhostTextState {
  /** The text to show (and insert) at the caret; `''` when there is none. */
  readonly suggestion: string;
  readonly status: GhostTextStatus;
  /** Why `status` is `'error'`; `null` otherwise. */
  readonly error: InklingError | null;
  /** The text around the caret this state is for; `null` before the first text. */
  readonly context: GhostContext | null;
}

/**
 * The text before and after the caret (clamped into the text; default: the
 * end). A caret between the two halves of a surrogate pair (an emoji) is
 * taken as before the pair, so neither side holds half a character.
 *
 * @example
 * contextOf('Hello world', 5); // { before: 'Hello', after: ' world' }
 */
export function contextOf(text: string, caret: number | undefined): GhostContext {
  let at = Math.max(0, Math.min(text.length, Math.trunc(caret ?? text.length) || 0));
  if (at > 0 && at < text.length && isHighSurrogate(text.charCodeAt(at - 1)) && isLowSurrogate(text.charCodeAt(at))) at -= 1;
  return { before: text.slice(0, at), after: text.slice(at) };
}

const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;
const isLowSurrogate = (code: number) => code >= 0xdc00 && code <= 0xdfff;

/**
 * Whether two contexts are the same text around the same caret.
 *
 * @example
 * sameContext(contextOf('ab', 1), { before: 'a', after: 'b' }); // true
 */
export function sameContext(a: GhostContext | undefined | null, b: GhostContext): boolean {
  return !!a && a.before === b.before && a.after === b.after;
}

/**
 * The state as it applies to `context`, the text and caret on screen now,
 * which may be a keystroke ahead of the state (React renders the new text
 * before an effect hands it to the controller). A suggestion typed through
 * keeps its rest; one that no longer fits is never shown.
 *
 * @example
 * const view = projectGhostText(ghost.getSnapshot(), { before: text, after: '' });
 */
export function projectGhostText(state: GhostTextState, context: GhostContext): GhostTextState {
  const at = state.context;
  if (!at || sameContext(at, context)) return state;
  if (state.suggestion && context.after === at.after && context.before.startsWith(at.before)) {
    const typed = context.before.slice(at.before.length);
    if (typed.length < state.suggestion.length && state.suggestion.startsWith(typed)) {
      return { ...state, suggestion: state.suggestion.slice(typed.length), context };
    }
  }
  return { suggestion: '', status: state.status === 'idle' ? 'idle' : 'queued', error: null, context };
}

/**
 * The text with the suggestion accepted at the caret: all of it, or its next
 * word (words as `Intl.Segmenter` finds them, so CJK works). The one place
 * accepting is written; the controller and the hooks call it.
 *
 * @example
 * acceptSuggestion('The quick', 9, ' brown fox', 'word'); // 'The quick brown'
 */
export function acceptSuggestion(text: string, caret: number | undefined, suggestion: string, how: 'all' | 'word', locale?: string): string {
  return insertAtCaret(text, caret, how === 'all' ? suggestion : nextWord(suggestion, locale));
}

/**
 * `text` with `piece` inserted at `caret` (default: the end).
 *
 * @example
 * insertAtCaret('Hello world', 5, ' brave'); // 'Hello brave world'
 */
export function insertAtCaret(text: string, caret: number | undefined, piece: string): string {
  const { before, after } = contextOf(text, caret);
  return before + piece + after;
}
