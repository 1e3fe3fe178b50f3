import type { RefObject } from 'react';
import type { DataAttributes } from '../../base/dataAttributes.js';
import type { GhostTextareaAria } from './ghostTextareaTypes.js';
import { GHOST_STYLE, OVERLAY_STYLE, SHOWN_TEXT, TRANSPARENT_TEXT, VISUALLY_HIDDEN } from './ghostTextareaStyles.js';

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
