import type { InklingError } from '@inkling/scheduler';
import type { GhostContext } from './ghostPrompt.js';
import { nextWord } from './nextWord.js';
import { stripUnsafeText } from './stripUnsafeText.js';
import { splitsPair } from './surrogatePair.js';

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
  /** Whether `suggestion` came from the session's cache (no engine call was waited for). */
  readonly fromCache: boolean;
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
  if (splitsPair(text, at)) at -= 1;
  return { before: text.slice(0, at), after: text.slice(at) };
}

/**
 * Whether two contexts are the same text around the same caret (a missing
 * one, `null` or `undefined`, is the same only as itself).
 *
 * @example
 * sameContext(contextOf('ab', 1), { before: 'a', after: 'b' }); // true
 */
export function sameContext(a: GhostContext | undefined | null, b: GhostContext | null): boolean {
  return a === b || (!!a && !!b && a.before === b.before && a.after === b.after);
}

/**
 * What was typed to get from `from` to `to` (`''` for the same context), or
 * `undefined` when `to` is not `from` with text typed at the caret.
 *
 * @example
 * typedSince({ before: 'The', after: '' }, { before: 'The qu', after: '' }); // ' qu'
 */
export function typedSince(from: GhostContext, to: GhostContext): string | undefined {
  return to.after === from.after && to.before.startsWith(from.before) ? to.before.slice(from.before.length) : undefined;
}

/**
 * A ghost-text state: `suggestion` (default none) shown at `context` with
 * `status`, the `error` when that is `'error'`, and whether it came from the cache.
 *
 * @example
 * ghostState('queued', { before: 'Hi', after: '' }); // { suggestion: '', status: 'queued', error: null, context: …, fromCache: false }
 */
export function ghostState(
  status: GhostTextStatus,
  context: GhostContext | null,
  suggestion = '',
  error: InklingError | null = null,
  fromCache = false,
): GhostTextState {
  return { suggestion, status, error, context, fromCache };
}

/**
 * The one type-through rule: what is left of `suggestion` once `typed` has
 * been typed at the caret, or `undefined` when it no longer fits (`typed`
 * is not its start, or types the whole of a `complete` one: time for the
 * next). Typing ahead of a suggestion still streaming leaves `''`.
 *
 * @example
 * fitSuggestion(' quick fox', ' qu', true); // 'ick fox'
 * fitSuggestion(' quick', ' quick', true); // undefined
 */
export function fitSuggestion(suggestion: string, typed: string, complete: boolean): string | undefined {
  if (suggestion.startsWith(typed)) {
    const rest = suggestion.slice(typed.length);
    return complete && typed && !rest ? undefined : rest;
  }
  return !complete && typed.startsWith(suggestion) ? '' : undefined;
}

/**
 * The state as it applies to `context`, the text and caret on screen now,
 * which may be a keystroke ahead of the state (React renders the new text
 * before an effect hands it to the controller). A suggestion typed through
 * keeps its rest; one that no longer fits is never shown (`fitSuggestion`).
 *
 * @example
 * const view = projectGhostText(ghost.getSnapshot(), { before: text, after: '' });
 */
export function projectGhostText(state: GhostTextState, context: GhostContext): GhostTextState {
  const at = state.context;
  if (!at || sameContext(at, context)) return state;
  const typed = typedSince(at, context);
  const rest = state.suggestion && typed !== undefined ? fitSuggestion(state.suggestion, typed, true) : undefined;
  if (rest) return { ...state, suggestion: rest, context };
  return ghostState(state.status === 'idle' ? 'idle' : 'queued', context);
}

/** What accepting a suggestion gives, the same from the controller, `useGhostText` and `useGhostTextarea`. */
export interface GhostAcceptance {
  /** The editor's text with the suggestion (or its next word) inserted; the text as it was when nothing was accepted. */
  readonly text: string;
  /** Where the caret goes: just after the inserted text. */
  readonly caret: number;
  /** What was inserted; `''` when there was no suggestion to accept. */
  readonly inserted: string;
}

/**
 * The text with the suggestion accepted at the caret: all of it, or its next
 * word (words as `Intl.Segmenter` finds them, so CJK works), and where the
 * caret goes. Bidi overrides, isolates and control characters other than tab
 * and newline are never inserted (see `stripUnsafeText`). The one place accepting is written; the controller and the
 * hooks call it.
 *
 * @example
 * acceptSuggestion('The quick', 9, ' brown fox', 'word'); // { text: 'The quick brown', caret: 15, inserted: ' brown' }
 */
export function acceptSuggestion(
  text: string,
  caret: number | undefined,
  suggestion: string,
  how: 'all' | 'word',
  locale?: string,
): GhostAcceptance {
  const { before, after } = contextOf(text, caret);
  const safe = stripUnsafeText(suggestion);
  const inserted = how === 'all' ? safe : nextWord(safe, locale);
  return { text: before + inserted + after, caret: before.length + inserted.length, inserted };
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
