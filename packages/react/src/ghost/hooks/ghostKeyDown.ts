import type { KeyboardEvent } from 'react';
import { ghostKeyAction } from '../core/ghostKeyAction.js';

/** What a key may do: the ghost text's three actions. */
export interface GhostKeyTargets {
  accept(): void;
  acceptWord(): void;
  dismiss(): void;
  /** Reads the suggestion out through the live region. */
  read(): void;
}

/**
 * Handles a keydown in a ghost-text textarea: Tab accepts a visible
 * suggestion, Ctrl/Alt+ArrowRight its next word, Alt+F2 reads it out, Escape dismisses (taking the
 * key only when something was visible). Keys a composition swallowed, and keys
 * an earlier handler prevented, are left alone; nothing is visible during a
 * composition (the controller, the one owner of that flag, hides it), and its
 * `dismiss` ignores one.
 *
 * @example
 * onKeyDown={(event) => handleGhostKeyDown(event, visible, { accept, acceptWord, dismiss })}
 */
export function handleGhostKeyDown(event: KeyboardEvent<HTMLTextAreaElement>, visible: boolean, targets: GhostKeyTargets): void {
  // 229: the key that a composition swallowed (Safari says so instead of isComposing).
  if (event.defaultPrevented || event.nativeEvent.isComposing || event.keyCode === 229) return;
  const action = ghostKeyAction(event, visible);
  if (action === 'dismiss') {
    if (visible) event.preventDefault();
    targets.dismiss();
  } else if (action) {
    event.preventDefault();
    targets[action]();
  }
}
