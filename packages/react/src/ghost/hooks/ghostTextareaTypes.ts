import type { ChangeEventHandler, HTMLAttributes, RefObject, TextareaHTMLAttributes } from 'react';
import type { DataAttributes } from '../../base/dataAttributes.js';
import type { GhostAcceptance } from '../core/projectGhostText.js';
import type { UseGhostTextOptions, UseGhostTextResult } from './useGhostText.js';

/** Words `GhostTextarea` says to assistive technology; translate them here. */
export interface GhostTextareaMessages {
  /** What the suggestion says, read out once it has settled (and on Alt+F2). Default: `` `Suggestion: ${text}.` ``. */
  suggestion: (text: string) => string;
  /** Said after the first suggestion once the textarea has the focus: how to accept it (keys and the tap). */
  available: string;
  /** The status line under the textarea when suggestions fail (the textarea still works). */
  error: (error: Error) => string;
}

/** Props of `useGhostTextarea` and `GhostTextarea`: every textarea prop, plus the ghost text's. */
export interface GhostTextareaProps
  extends
    Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'value' | 'defaultValue' | 'onChange'>,
    Pick<
      UseGhostTextOptions,
      'debounceMs' | 'maxTokens' | 'buildParams' | 'locale' | 'speculate' | 'refuse' | 'events' | 'pause' | 'adaptDebounce' | 'adaptLength'
    > {
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
  /**
   * How long a complete suggestion stays unchanged before it is read out
   * (once, never token by token), in ms; `Infinity`: only on Alt+F2. Default `700`.
   */
  announceDelayMs?: number;
  /** Class of the wrapper around the textarea and its overlay. */
  rootClassName?: string;
  /**
   * Let the browser draw its own inline writing suggestions too (Chrome and
   * Edge 124+, Safari 18), under the kit's. Default `false`: the textarea
   * gets `writingsuggestions="false"`, so only one suggestion is ever drawn.
   */
  writingSuggestions?: boolean;
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
  /** For a visually hidden polite live region holding `announcement`; the textarea's `aria-describedby` points at it while it holds one. */
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
  /** What the live region says now: the settled suggestion's words and how to accept it, `''` otherwise. */
  announcement: string;
  /** The ghost-text state underneath (status, error, dismiss, ...). */
  ghost: UseGhostTextResult;
  /** Inserts the whole visible suggestion (one undo step); `inserted` is `''` when there was none. */
  accept(): GhostAcceptance;
  /** Inserts the suggestion's next word; `inserted` is `''` when there was none. */
  acceptWord(): GhostAcceptance;
  /** Reads the settled suggestion out now through the live region (what Alt+F2 does). */
  read(): void;
}
