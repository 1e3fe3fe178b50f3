import { type GhostTextState, contextOf } from './projectGhostText.js';

/** What an editor with ghost text draws in one render. */
export interface GhostEditorView {
  /** The text before the caret. */
  readonly before: string;
  /** The suggestion to draw at the caret, `''` when none is visible. */
  readonly suggestion: string;
  /** The text after the caret. */
  readonly after: string;
  /** Whether a suggestion is visible: the live region's announcement trigger. */
  readonly visible: boolean;
  /** Whether the visible suggestion sits mid-text (text follows the caret), so the overlay must draw the text itself. */
  readonly midText: boolean;
}

/**
 * The editor's render-time view: the text split at the caret around the
 * ghost-text view (`GhostTextController.view`) for the same text and caret.
 *
 * @example
 * ghostEditorView({ suggestion: ' world', status: 'done', error: null, context: null }, 'Hello!', 5);
 * // { before: 'Hello', suggestion: ' world', after: '!', visible: true, midText: true }
 */
export function ghostEditorView(view: GhostTextState, text: string, caret: number | undefined): GhostEditorView {
  const { before, after } = contextOf(text, caret);
  const { suggestion } = view;
  const visible = suggestion !== '';
  return { before, suggestion, after, visible, midText: visible && after !== '' };
}
