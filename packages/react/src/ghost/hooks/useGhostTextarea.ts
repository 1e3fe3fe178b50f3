import type { RefObject } from 'react';
import { checkDuration } from '@inkling/scheduler/engine';
import { useEffect, useId, useState } from 'react';
import { ghostEditorView } from '../core/ghostEditorView.js';
import { insertText } from '../core/insertText.js';
import { type GhostAcceptance, acceptSuggestion } from '../core/projectGhostText.js';
import type { DataAttributes } from '../../base/dataAttributes.js';
import { handleGhostKeyDown } from './ghostKeyDown.js';
import { DEFAULT_MESSAGES } from './ghostTextareaMessages.js';
import {
  ghostErrorProps,
  ghostLiveRegionProps,
  ghostOverlayProps,
  ghostRootProps,
  ghostSuggestionProps,
  ghostTextProps,
} from './ghostTextareaPropBags.js';
import { HIDDEN_TEXT } from './ghostTextareaStyles.js';
import type { GhostTextareaAria, GhostTextareaProps } from './ghostTextareaTypes.js';
import { mergeProps } from '../../base/mergeProps.js';
import { useAnnouncement } from './useAnnouncement.js';
import { useGhostOverlay } from './useGhostOverlay.js';
import { useGhostText } from './useGhostText.js';
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
  const {
    value,
    defaultValue,
    onChange,
    session,
    suggest = true,
    debounceMs,
    maxTokens,
    buildParams,
    locale,
    speculate,
    refuse,
    ...rest
  } = props;
  const { onAccept, messages, announceDelayMs = 700, rootClassName, ...textareaRest } = rest;
  checkDuration(announceDelayMs, '<GhostTextarea> "announceDelayMs"');
  const id = useId();
  const { text, selection, changed, readSelection } = useTextareaState(ref, value, defaultValue);
  const [focused, setFocused] = useState(false);
  const caret = selection.end;
  // A selection hides the suggestion in this very render (the controller's rule would only act after it).
  const selecting = selection.start !== selection.end && refuse?.selection !== false;
  const enabled = suggest && focused && !selecting && !props.disabled && !props.readOnly;
  const selectionStart = selection.start;
  const options = {
    session: session ?? `ghost-textarea${id}`,
    text,
    caret,
    selectionStart,
    enabled,
    debounceMs,
    maxTokens,
    buildParams,
    locale,
    speculate,
    refuse,
  };
  const ghost = useGhostText(options);
  const { before, suggestion, after, visible, midText } = ghostEditorView(ghost, text, caret);
  const overlayRef = useGhostOverlay(ref, visible);
  const settled = visible && ghost.status === 'done';
  // How to accept is said with the first suggestion after the focus comes (kept while that one shows); then only suggestions.
  const [toldWith, setToldWith] = useState<string | null>(null);
  const howToAccept = toldWith === null || toldWith === suggestion ? ` ${messages?.available ?? DEFAULT_MESSAGES.available}` : '';
  const spoken = settled ? `${(messages?.suggestion ?? DEFAULT_MESSAGES.suggestion)(suggestion)}${howToAccept}` : '';
  const [announcement, read] = useAnnouncement(spoken, announceDelayMs);
  useEffect(() => {
    if (!focused) setToldWith(null);
    else if (announcement) setToldWith((told) => told ?? suggestion);
  }, [focused, announcement, suggestion]);

  const insert = (how: 'all' | 'word'): GhostAcceptance => {
    const textarea = ref.current;
    const accepted = acceptSuggestion(text, caret, textarea ? suggestion : '', how, locale);
    if (!textarea || !accepted.inserted) return accepted;
    const at = Math.min(caret, textarea.value.length);
    textarea.setSelectionRange(at, at);
    insertText(textarea, accepted.inserted);
    onAccept?.(accepted.inserted, how);
    return accepted;
  };
  const accept = () => insert('all');
  const acceptWord = () => insert('word');

  const errorId = `${id}-error`;
  const errorMessage = ghost.status === 'error' && ghost.error ? (messages?.error ?? DEFAULT_MESSAGES.error)(ghost.error) : '';
  const liveId = `${id}-suggestion`;
  const describedBy =
    [textareaRest['aria-describedby'], announcement ? liveId : undefined, errorMessage ? errorId : undefined].filter(Boolean).join(' ') ||
    undefined;
  const state: DataAttributes = { 'data-state': ghost.status, 'data-has-suggestion': visible ? 'true' : undefined };
  // Composing is the controller's one flag: it hides the suggestion (so no key accepts it) and holds requests.
  const composition = (on: boolean) => () => {
    if (!on) readSelection();
    ghost.setComposing(on);
  };

  return {
    rootProps: ghostRootProps(state, rootClassName),
    // The caller's handlers run first (a keydown it prevents is left alone), then these.
    textareaProps: mergeProps<GhostTextareaAria['textareaProps']>({ onChange: changed }, textareaRest, onChange && { onChange }, state, {
      style: midText ? HIDDEN_TEXT : undefined,
      value: text,
      'aria-autocomplete': 'inline',
      'aria-describedby': describedBy,
      onKeyDown: (event) => handleGhostKeyDown(event, visible, { accept, acceptWord, dismiss: ghost.dismiss, read }),
      onKeyUp: readSelection,
      onSelect: readSelection,
      onMouseUp: readSelection,
      onFocus: () => {
        setFocused(true);
        readSelection();
      },
      onBlur: () => setFocused(false),
      onCompositionStart: composition(true),
      onCompositionEnd: composition(false),
    }),
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
