import type { ChangeEventHandler, KeyboardEventHandler, RefObject } from 'react';
import type { DataAttributes } from '../../base/dataAttributes.js';
import { mergeProps } from '../../base/mergeProps.js';
import type { GhostTextareaAria, GhostTextareaProps } from './ghostTextareaTypes.js';
import { GHOST_STYLE, HIDDEN_TEXT, OVERLAY_STYLE, SHOWN_TEXT, TRANSPARENT_TEXT, VISUALLY_HIDDEN } from './ghostTextareaStyles.js';

/**
 * The wrapper's props: the ghost state as data attributes, positioned for the overlay.
 *
 * @example
 * <div {...ghostRootProps(state, 'my-editor')} />
 */
export function ghostRootProps(state: DataAttributes, className: string | undefined): GhostTextareaAria['rootProps'] {
  return {
    ...state,
    className: className ? `inkling-ghost-textarea ${className}` : 'inkling-ghost-textarea',
    style: { position: 'relative' },
  };
}

/**
 * The overlay's props: hidden from assistive technology (the live region speaks for it).
 *
 * @example
 * <div {...ghostOverlayProps(overlayRef)} />
 */
export function ghostOverlayProps(ref: RefObject<HTMLDivElement | null>): GhostTextareaAria['overlayProps'] {
  return { ref, 'aria-hidden': true, 'data-inkling-overlay': '', className: 'inkling-ghost-overlay', style: OVERLAY_STYLE };
}

/**
 * The suggestion's props: a tap accepts it and leaves the focus (and caret) in the textarea.
 *
 * @example
 * <span {...ghostSuggestionProps(() => accept())}>{suggestion}</span>
 */
export function ghostSuggestionProps(accept: () => void): GhostTextareaAria['ghostProps'] {
  return {
    'data-inkling-ghost': '',
    className: 'inkling-ghost',
    style: GHOST_STYLE,
    onMouseDown: (event) => event.preventDefault(),
    onClick: () => accept(),
  };
}

/**
 * The props of the overlay's copies of the text around the caret: drawn mid-text, transparent otherwise.
 *
 * @example
 * <span {...ghostTextProps(midText)}>{before}</span>
 */
export function ghostTextProps(midText: boolean): GhostTextareaAria['textProps'] {
  return { style: midText ? SHOWN_TEXT : TRANSPARENT_TEXT };
}

/**
 * The visually hidden polite live region's props; `id` is what the textarea's `aria-describedby` names.
 *
 * @example
 * <div {...ghostLiveRegionProps(liveId)}>{announcement}</div>
 */
export function ghostLiveRegionProps(id: string): GhostTextareaAria['liveRegionProps'] {
  return { id, role: 'status', 'aria-live': 'polite', 'aria-atomic': true, className: 'inkling-ghost-announcer', style: VISUALLY_HIDDEN };
}

/**
 * The error line's props: an alert, marked while it holds a message.
 *
 * @example
 * <div {...ghostErrorProps(errorId, errorMessage)}>{errorMessage}</div>
 */
export function ghostErrorProps(id: string, message: string): GhostTextareaAria['errorProps'] {
  return { id, role: 'alert', className: 'inkling-ghost-error', 'data-has-error': message ? 'true' : undefined };
}

/** What the textarea's own props are made of: the caller's, the ghost state, and the handlers. */
export interface GhostTextareaParts {
  /** The caller's textarea props (ghost-text props taken out). */
  readonly rest: Omit<GhostTextareaProps, 'value' | 'defaultValue' | 'onChange'>;
  readonly onChange: GhostTextareaProps['onChange'];
  /** Whether the browser may draw its own writing suggestions as well. */
  readonly writingSuggestions: boolean;
  readonly changed: ChangeEventHandler<HTMLTextAreaElement>;
  readonly state: DataAttributes;
  readonly text: string;
  readonly midText: boolean;
  /** The ids of the live region and the error line, when they hold something. */
  readonly describedBy: readonly (string | undefined)[];
  readonly onKeyDown: KeyboardEventHandler<HTMLTextAreaElement>;
  readonly readSelection: () => void;
  readonly setFocused: (focused: boolean) => void;
  /** Composing is the controller's one flag: it hides the suggestion (so no key accepts it) and holds requests. */
  readonly setComposing: (composing: boolean) => void;
}

/**
 * The textarea's props: the caller's handlers run first (a keydown it
 * prevents is left alone), then the ghost text's.
 *
 * @example
 * <textarea {...ghostTextareaProps(parts)} ref={ref} />
 */
export function ghostTextareaProps(parts: GhostTextareaParts): GhostTextareaAria['textareaProps'] {
  const { rest, onChange, changed, state, readSelection, setFocused, setComposing } = parts;
  const describedBy = [rest['aria-describedby'], ...parts.describedBy].filter(Boolean).join(' ') || undefined;
  const composition = (on: boolean) => () => {
    if (!on) readSelection();
    setComposing(on);
  };
  return mergeProps<GhostTextareaAria['textareaProps']>({ onChange: changed }, rest, onChange && { onChange }, state, {
    style: parts.midText ? HIDDEN_TEXT : undefined,
    value: parts.text,
    'aria-autocomplete': 'inline',
    // The browser's own inline suggestions would stack under the kit's (an attribute React passes as it is).
    ...({ writingsuggestions: String(parts.writingSuggestions) } as object),
    'aria-describedby': describedBy,
    onKeyDown: parts.onKeyDown,
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
  });
}
