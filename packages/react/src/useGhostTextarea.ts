import type {
  ChangeEventHandler,
  CSSProperties,
  HTMLAttributes,
  KeyboardEvent,
  RefObject,
  TextareaHTMLAttributes,
} from 'react';
import { checkDuration } from '@inkling/scheduler';
import { useId, useRef, useState } from 'react';
import { type GhostOverlayHandle, attachGhostOverlay } from './core/attachGhostOverlay.js';
import { ghostKeyAction } from './core/ghostKeyAction.js';
import { insertText } from './core/insertText.js';
import { nextWord } from './core/nextWord.js';
import { contextOf } from './core/projectGhostText.js';
import type { DataAttributes } from './dataAttributes.js';
import { useAnnouncement } from './useAnnouncement.js';
import { type UseGhostTextOptions, type UseGhostTextResult, useGhostText } from './useGhostText.js';
import { mergeProps } from './mergeProps.js';
import { useIsomorphicLayoutEffect } from './useIsomorphicLayoutEffect.js';
import { useTextareaState } from './useTextareaState.js';

/** Words `GhostTextarea` says to assistive technology; translate them here. */
export interface GhostTextareaMessages {
  /** Announced politely once a suggestion has stayed visible for `announceDelayMs`. */
  available: string;
  /** The status line under the textarea when suggestions fail (the textarea still works). */
  error: (error: Error) => string;
}

const DEFAULT_MESSAGES: GhostTextareaMessages = {
  available: 'Suggestion available. Press Tab to accept it, Control or Alt plus Right Arrow to accept one word, Escape to dismiss.',
  error: (error) => `Suggestions are unavailable: ${error.message}`,
};

/** Props of `useGhostTextarea` and `GhostTextarea`: every textarea prop, plus the ghost text's. */
export interface GhostTextareaProps
  extends Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'value' | 'defaultValue' | 'onChange'>,
    Pick<UseGhostTextOptions, 'debounceMs' | 'maxTokens' | 'buildParams' | 'locale'> {
  /** The text, controlled. Pair it with `onChange`. */
  value?: string;
  /** The initial text, uncontrolled. Default `''`. */
  defaultValue?: string;
  /** Called for every change, accepted suggestions included (they arrive as `input` events). */
  onChange?: ChangeEventHandler<HTMLTextAreaElement>;
  /** The pool session of this editor's requests. Default: an id unique to this textarea. */
  session?: string;
  /** Whether to suggest. Suggestions are only asked for while the textarea has focus and no selection. Default `true`. */
  suggest?: boolean;
  /** Called after a suggestion (or its next word) was inserted. */
  onAccept?: (inserted: string, how: 'all' | 'word') => void;
  /** The live region's words. Default: English. */
  messages?: Partial<GhostTextareaMessages>;
  /** How long a suggestion stays visible before it is announced, in ms; `Infinity`: never announced. Default `700`. */
  announceDelayMs?: number;
  /** Class of the wrapper around the textarea and its overlay. */
  rootClassName?: string;
}

/** What `useGhostTextarea` returns: prop bags to spread, and the texts to render. */
export interface GhostTextareaAria {
  /** For the wrapper: `position: relative`, `data-state`, `data-has-suggestion`. */
  rootProps: HTMLAttributes<HTMLDivElement> & DataAttributes;
  /** For the `<textarea>` (give it the same ref you passed the hook). */
  textareaProps: TextareaHTMLAttributes<HTMLTextAreaElement> & DataAttributes;
  /** For the overlay, rendered always, after the textarea, inside the wrapper. */
  overlayProps: HTMLAttributes<HTMLDivElement> & { ref: RefObject<HTMLDivElement | null> } & DataAttributes;
  /** For the span holding the suggestion inside the overlay. */
  ghostProps: HTMLAttributes<HTMLSpanElement> & DataAttributes;
  /**
   * For the spans holding `before` and `after` in the overlay: transparent
   * when the ghost ends the text; mid-text, the overlay draws the text itself
   * (the textarea's turns transparent, its caret stays) so the text after the
   * caret moves aside for the ghost instead of running under it.
   */
  textProps: HTMLAttributes<HTMLSpanElement>;
  /** For a visually hidden polite live region holding `announcement`. */
  liveRegionProps: HTMLAttributes<HTMLDivElement>;
  /**
   * For a visible status line holding `errorMessage`, rendered always (empty
   * when all is well, so a screen reader announces the message when it
   * appears); the textarea's `aria-describedby` points at it while it holds one.
   */
  errorProps: HTMLAttributes<HTMLDivElement> & DataAttributes;
  /** Why suggestions failed, in words (`messages.error`); `''` when they did not. */
  errorMessage: string;
  /** The text before the caret: the overlay's first (transparent) part. */
  before: string;
  /** The suggestion to draw, `''` when none is visible. Render it as text. */
  suggestion: string;
  /** The text after the caret: the overlay's last (transparent) part. */
  after: string;
  /** What the live region says now. */
  announcement: string;
  /** The ghost-text state underneath (status, error, dismiss, ...). */
  ghost: UseGhostTextResult;
  /** Inserts the whole visible suggestion (one undo step). Returns whether there was one. */
  accept(): boolean;
  /** Inserts the suggestion's next word. Returns whether there was one. */
  acceptWord(): boolean;
}

const OVERLAY_STYLE: CSSProperties = {
  position: 'absolute',
  top: 0,
  left: 0,
  margin: 0,
  overflow: 'hidden',
  pointerEvents: 'none',
  color: 'transparent',
  background: 'transparent',
  boxSizing: 'border-box',
  whiteSpace: 'pre-wrap',
  overflowWrap: 'break-word',
};

// The ghost's own colour comes from the stylesheet, or this fallback.
const GHOST_STYLE: CSSProperties = { pointerEvents: 'auto', color: 'var(--inkling-ghost-color, GrayText)', cursor: 'pointer' };

const TRANSPARENT_TEXT: CSSProperties = { color: 'transparent' };
const SHOWN_TEXT: CSSProperties = { color: 'var(--inkling-text-color, CanvasText)' };
const HIDDEN_TEXT: CSSProperties = { color: 'transparent', caretColor: 'var(--inkling-text-color, CanvasText)' };

const VISUALLY_HIDDEN: CSSProperties = {
  position: 'absolute',
  width: 1,
  height: 1,
  margin: -1,
  padding: 0,
  border: 0,
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  clipPath: 'inset(50%)',
  whiteSpace: 'nowrap',
};

/**
 * The behaviour of a textarea with inline ghost text: keys (Tab accepts a
 * visible suggestion, else moves focus; Ctrl/Alt+ArrowRight accepts a word;
 * Escape dismisses), IME composition, tap to accept, one-step undo, ARIA and
 * the overlay that draws the suggestion at the caret. Returns prop bags;
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
    session: sessionProp,
    suggest = true,
    debounceMs,
    maxTokens,
    buildParams,
    locale,
    onAccept,
    messages,
    announceDelayMs = 700,
    rootClassName,
    ...textareaRest
  } = props;
  const { disabled, readOnly } = props;
  checkDuration(announceDelayMs, '<GhostTextarea> "announceDelayMs"');
  const id = useId();
  const session = sessionProp ?? `ghost-textarea${id}`;
  const { text, selection, changed, readSelection } = useTextareaState(ref, value, defaultValue);
  const [focused, setFocused] = useState(false);
  const composing = useRef(false);
  const caret = selection.end;
  const enabled = suggest && focused && selection.start === selection.end && !disabled && !readOnly;
  const ghost = useGhostText({ session: session, text, caret, enabled, debounceMs, maxTokens, buildParams, locale });
  const { suggestion } = ghost;
  const visible = suggestion !== '';
  const { before, after } = contextOf(text, caret);
  const midText = visible && after !== '';

  const overlayRef = useRef<HTMLDivElement>(null);
  const overlay = useRef<GhostOverlayHandle | undefined>(undefined);
  useIsomorphicLayoutEffect(() => {
    const textarea = ref.current;
    const element = overlayRef.current;
    if (!textarea || !element) return;
    const handle = attachGhostOverlay(textarea, element);
    overlay.current = handle;
    return () => {
      handle.detach();
      overlay.current = undefined;
    };
  }, [ref]);
  // A suggestion appearing: the style may have changed since (a class, a theme), and an empty overlay could not scroll.
  useIsomorphicLayoutEffect(() => {
    if (visible) overlay.current?.sync();
  }, [visible]);

  const insert = (piece: string, how: 'all' | 'word'): boolean => {
    const textarea = ref.current;
    if (!textarea || !piece) return false;
    const at = Math.min(caret, textarea.value.length);
    textarea.setSelectionRange(at, at);
    insertText(textarea, piece);
    onAccept?.(piece, how);
    return true;
  };
  const accept = () => insert(suggestion, 'all');
  const acceptWord = () => insert(nextWord(suggestion, locale), 'word');

  const errorId = `${id}-error`;
  const errorMessage = ghost.status === 'error' && ghost.error ? (messages?.error ?? DEFAULT_MESSAGES.error)(ghost.error) : '';
  const describedBy = [textareaRest['aria-describedby'], errorMessage ? errorId : undefined].filter(Boolean).join(' ') || undefined;

  const announcement = useAnnouncement(visible, messages?.available ?? DEFAULT_MESSAGES.available, announceDelayMs);

  const handleKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    // 229: the key that a composition swallowed (Safari says so instead of isComposing).
    if (event.defaultPrevented || composing.current || event.nativeEvent.isComposing || event.keyCode === 229) return;
    const action = ghostKeyAction(event, visible);
    if (action === 'dismiss') {
      if (visible) event.preventDefault();
      ghost.dismiss();
    } else if (action === 'accept' || action === 'acceptWord') {
      event.preventDefault();
      if (action === 'accept') accept();
      else acceptWord();
    }
  };

  const state: DataAttributes = { 'data-state': ghost.status, 'data-has-suggestion': visible ? 'true' : undefined };

  return {
    rootProps: {
      ...state,
      className: rootClassName ? `inkling-ghost-textarea ${rootClassName}` : 'inkling-ghost-textarea',
      style: { position: 'relative' },
    },
    // The caller's handlers run first (a keydown it prevents is left alone), then these.
    textareaProps: mergeProps<GhostTextareaAria['textareaProps']>({ onChange: changed }, textareaRest, onChange && { onChange }, state, {
      style: midText ? HIDDEN_TEXT : undefined,
      value: text,
      'aria-autocomplete': 'inline',
      'aria-describedby': describedBy,
      onKeyDown: handleKeyDown,
      onKeyUp: readSelection,
      onSelect: readSelection,
      onMouseUp: readSelection,
      onFocus: () => {
        setFocused(true);
        readSelection();
      },
      onBlur: () => setFocused(false),
      onCompositionStart: () => {
        composing.current = true;
        ghost.setComposing(true);
      },
      onCompositionEnd: () => {
        composing.current = false;
        readSelection();
        ghost.setComposing(false);
      },
    }),
    overlayProps: { ref: overlayRef, 'aria-hidden': true, 'data-inkling-overlay': '', className: 'inkling-ghost-overlay', style: OVERLAY_STYLE },
    ghostProps: {
      'data-inkling-ghost': '',
      className: 'inkling-ghost',
      style: GHOST_STYLE,
      // Keep the focus (and the caret) in the textarea when the ghost is tapped.
      onMouseDown: (event) => event.preventDefault(),
      onClick: () => {
        accept();
      },
    },
    textProps: { style: midText ? SHOWN_TEXT : TRANSPARENT_TEXT },
    liveRegionProps: { role: 'status', 'aria-live': 'polite', 'aria-atomic': true, className: 'inkling-ghost-announcer', style: VISUALLY_HIDDEN },
    errorProps: { id: errorId, role: 'alert', className: 'inkling-ghost-error', 'data-has-error': errorMessage ? 'true' : undefined },
    errorMessage,
    before,
    suggestion,
    after,
    announcement,
    ghost,
    accept,
    acceptWord,
  };
}
