import type { RefObject } from 'react';
import { insertText } from '../core/insertText.js';
import { type GhostAcceptance, acceptSuggestion } from '../core/projectGhostText.js';

/** What `acceptIntoTextarea` works on: the textarea, its text and caret as rendered, the suggestion shown there. */
export interface TextareaAcceptance {
  readonly ref: RefObject<HTMLTextAreaElement | null>;
  readonly text: string;
  readonly caret: number;
  readonly suggestion: string;
  readonly locale?: string;
  readonly onAccept?: (inserted: string, how: 'all' | 'word') => void;
}

/**
 * Accepts the shown suggestion (all of it or its next word) into the
 * textarea itself, at the caret, as one undo step that fires `input`; then
 * tells `onAccept`. Without a textarea, or a suggestion, nothing changes.
 *
 * @example
 * onKeyDown={() => acceptIntoTextarea({ ref, text, caret, suggestion }, 'word')}
 */
export function acceptIntoTextarea(
  { ref, text, caret, suggestion, locale, onAccept }: TextareaAcceptance,
  how: 'all' | 'word',
): GhostAcceptance {
  const textarea = ref.current;
  const accepted = acceptSuggestion(text, caret, textarea ? suggestion : '', how, locale);
  if (!textarea || !accepted.inserted) return accepted;
  const at = Math.min(caret, textarea.value.length);
  textarea.setSelectionRange(at, at);
  insertText(textarea, accepted.inserted);
  onAccept?.(accepted.inserted, how);
  return accepted;
}
