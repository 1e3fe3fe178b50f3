import type { RefObject } from 'react';
import { useId, useState } from 'react';
import { ghostEditorView } from '../core/ghostEditorView.js';
import type { DataAttributes } from '../../base/dataAttributes.js';
import { textareaAcceptors } from './acceptIntoTextarea.js';
import { handleGhostKeyDown } from './ghostKeyDown.js';
import {
  ghostErrorProps,
  ghostLiveRegionProps,
  ghostOverlayProps,
  ghostRootProps,
  ghostSuggestionProps,
  ghostTextareaProps,
  ghostTextProps,
} from './ghostTextareaPropBags.js';
import type { GhostTextareaAria, GhostTextareaProps } from './ghostTextareaTypes.js';
import { splitGhostTextareaProps } from './splitGhostTextareaProps.js';
import { useGhostOverlay } from './useGhostOverlay.js';
import { useGhostText } from './useGhostText.js';
import { useGhostWords } from './useGhostWords.js';
import { useTextareaState } from './useTextareaState.js';

export type { GhostTextareaAria, GhostTextareaMessages, GhostTextareaProps } from './ghostTextareaTypes.js';

/**
 * The behaviour of a textarea with inline ghost text: keys (Tab accepts a
 * visible suggestion, else moves focus; Ctrl/Alt+ArrowRight accepts a word;
 * Alt+F2 reads it out; Escape dismisses), IME composition, tap to accept,
 * one-step undo, ARIA (the settled suggestion read out once and kept as the
 * textarea's description) and the overlay that draws the suggestion at the caret. Returns prop bags;
 * `GhostTextarea` is the shell that spreads them. Needs a `<PoolProvider>`.
 *
 * @example
 * function Editor(props: GhostTextareaProps) {
 *   const ref = useRef<HTMLTextAreaElement>(null);
 *   const g = useGhostTextarea(props, ref);
 *   return (
 *     <div {...g.rootProps}>
 *       <textarea {...g.textareaProps} ref={ref} />
 *       <div {...g.overlayProps}>
 *         {g.suggestion && <><span {...g.textProps}>{g.before}</span><span {...g.ghostProps}>{g.suggestion}</span><span {...g.textProps}>{g.after}</span></>}
 *       </div>
 *       <div {...g.liveRegionProps}>{g.announcement}</div>
 *       <div {...g.errorProps}>{g.errorMessage}</div>
 *     </div>
 *   );
 * }
 */
export function useGhostTextarea(props: GhostTextareaProps, ref: RefObject<HTMLTextAreaElement | null>): GhostTextareaAria {
  const { ghost: options, own, rest } = splitGhostTextareaProps(props);
  const id = useId();
  const { text, selection, changed, readSelection } = useTextareaState(ref, own.value, own.defaultValue);
  const [focused, setFocused] = useState(false);
  const caret = selection.end;
  // A selection hides the suggestion in this very render (the controller's rule would only act after it).
  const selecting = selection.start !== selection.end && options.refuse?.selection !== false;
  const enabled = own.suggest && focused && !selecting && !props.disabled && !props.readOnly;
  const session = options.session ?? `ghost-textarea${id}`;
  const ghost = useGhostText({ ...options, session, text, caret, selectionStart: selection.start, enabled });
  const { before, suggestion, after, visible, midText } = ghostEditorView(ghost, text, caret);
  const overlayRef = useGhostOverlay(ref, visible);
  const settled = visible && ghost.status === 'done';
  const error = ghost.status === 'error' ? ghost.error : null;
  const { announcement, read, errorMessage } = useGhostWords(own, { suggestion, settled, error, focused });
  const take = (how: 'all' | 'word') => (how === 'all' ? ghost.accept() : ghost.acceptWord());
  const { accept, acceptWord } = textareaAcceptors({ ref, take, caret, onAccept: own.onAccept }, text);
  const [liveId, errorId] = [`${id}-suggestion`, `${id}-error`];
  const state: DataAttributes = { 'data-state': ghost.status, 'data-has-suggestion': visible ? 'true' : undefined };
  const textareaProps = ghostTextareaProps({
    rest,
    onChange: own.onChange,
    writingSuggestions: own.writingSuggestions,
    changed,
    state,
    text,
    midText,
    readSelection,
    setFocused,
    setComposing: ghost.setComposing,
    describedBy: [announcement ? liveId : undefined, errorMessage ? errorId : undefined],
    onKeyDown: (event) => handleGhostKeyDown(event, visible, { accept, acceptWord, dismiss: ghost.dismiss, read }),
  });
  return {
    rootProps: ghostRootProps(state, own.rootClassName),
    textareaProps,
    overlayProps: ghostOverlayProps(overlayRef),
    ghostProps: ghostSuggestionProps(accept),
    textProps: ghostTextProps(midText),
    liveRegionProps: ghostLiveRegionProps(liveId),
    errorProps: ghostErrorProps(errorId, errorMessage),
    errorMessage,
    before,
    suggestion,
    after,
    announcement,
    ghost,
    accept,
    acceptWord,
    read,
  };
}
