import type { RefObject } from 'react';
import { insertText } from '../core/insertText.js';
import { type GhostAcceptance, acceptSuggestion } from '../core/projectGhostText.js';

/** What `acceptIntoTextarea` works on: the textarea, and the ghost text's own acceptance of what it shows there. */
export interface TextareaAcceptance {
  readonly ref: RefObject<HTMLTextAreaElement | null>;
  /** `useGhostText`'s `accept` or `acceptWord` (which also reports the acceptance to the `events` option). */
  readonly take: (how: 'all' | 'word') => GhostAcceptance;
  readonly caret: number;
  readonly onAccept?: (inserted: string, how: 'all' | 'word') => void;
}

/**
 * Accepts the shown suggestion (all of it or its next word) into the
 * textarea itself, at the caret, as one undo step that fires `input`; then
 * tells `onAccept`. Without a textarea nothing is accepted.
 *
 * @example
 * onKeyDown={() => acceptIntoTextarea({ ref, take: (how) => (how === 'all' ? ghost.accept() : ghost.acceptWord()), caret }, 'word')}
 */
export function acceptIntoTextarea({ ref, take, caret, onAccept }: TextareaAcceptance, how: 'all' | 'word'): GhostAcceptance | null {
  const textarea = ref.current;
  if (!textarea) return null;
  const accepted = take(how);
  if (!accepted.inserted) return accepted;
  const at = Math.min(caret, textarea.value.length);
  textarea.setSelectionRange(at, at);
  insertText(textarea, accepted.inserted);
  onAccept?.(accepted.inserted, how);
  return accepted;
}

/**
 * `accept` and `acceptWord` for a textarea of `text`: each accepts into the
 * textarea (`acceptIntoTextarea`) or, without one, accepts nothing at the caret.
 *
 * @example
 * const { accept, acceptWord } = textareaAcceptors({ ref, take, caret, onAccept }, text);
 */
export function textareaAcceptors(target: TextareaAcceptance, text: string) {
  const run = (how: 'all' | 'word') => acceptIntoTextarea(target, how) ?? acceptSuggestion(text, target.caret, '', how);
  return { accept: () => run('all'), acceptWord: () => run('word') };
}
