import type { CSSProperties } from 'react';

/** The overlay: laid over the textarea (`attachGhostOverlay` copies its box), never hit, its own text transparent. */
export const OVERLAY_STYLE: CSSProperties = {
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

/** The suggestion: tappable; its colour comes from the stylesheet, or this fallback. */
export const GHOST_STYLE: CSSProperties = { pointerEvents: 'auto', color: 'var(--inkling-ghost-color, GrayText)', cursor: 'pointer' };

/** The overlay's copy of the text when the ghost ends it: the textarea draws the text. */
export const TRANSPARENT_TEXT: CSSProperties = { color: 'transparent' };

/** The overlay's copy of the text mid-text: the overlay draws it, moved aside for the ghost. */
export const SHOWN_TEXT: CSSProperties = { color: 'var(--inkling-text-color, CanvasText)' };

/** The textarea mid-text: its text hidden (the overlay draws it), its caret kept. */
export const HIDDEN_TEXT: CSSProperties = { color: 'transparent', caretColor: 'var(--inkling-text-color, CanvasText)' };

/** Out of sight, still read by screen readers (the live region). */
export const VISUALLY_HIDDEN: CSSProperties = {
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
