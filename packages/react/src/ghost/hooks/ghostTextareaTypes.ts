import type { ChangeEventHandler, HTMLAttributes, RefObject, TextareaHTMLAttributes } from 'react';
import type { DataAttributes } from '../../dataAttributes.js';
import type { UseGhostTextOptions, UseGhostTextResult } from './useGhostText.js';

/** Words `GhostTextarea` says to assistive technology; translate them here. */
export interface GhostTextareaMessages {
  /** Announced politely once a suggestion has stayed visible for `announceDelayMs`. */
  available: string;
  /** The status line under the textarea when suggestions fail (the textarea still works). */
  error: (error: Error) => string;
}

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
