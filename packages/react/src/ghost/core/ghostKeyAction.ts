/** The part of a keyboard event `ghostKeyAction` reads. */
export interface GhostKey {
  readonly key: string;
  readonly shiftKey: boolean;
  readonly ctrlKey: boolean;
  readonly altKey: boolean;
  readonly metaKey: boolean;
}

/** What a key does to ghost text. */
export type GhostKeyAction = 'accept' | 'acceptWord' | 'dismiss' | 'read';

/**
 * What a key press does to a suggestion, or `null` to leave it to the
 * browser: Tab (no modifier) accepts the whole visible suggestion, Ctrl or
 * Alt + ArrowRight accepts its next word, Escape dismisses, Alt+F2 reads it
 * out (as in VS Code's accessible view of an inline suggestion). With
 * nothing visible, Tab, the arrows and Alt+F2 are left alone, so Tab moves
 * focus as usual; Shift+Tab is never taken.
 *
 * @example
 * ghostKeyAction({ key: 'Tab', shiftKey: false, ctrlKey: false, altKey: false, metaKey: false }, true); // 'accept'
 */
export function ghostKeyAction(event: GhostKey, visible: boolean): GhostKeyAction | null {
  const { key, shiftKey, ctrlKey, altKey, metaKey } = event;
  if (key === 'Escape') return 'dismiss';
  if (!visible || shiftKey || metaKey) return null;
  if (key === 'Tab' && !ctrlKey && !altKey) return 'accept';
  if (key === 'ArrowRight' && (ctrlKey || altKey)) return 'acceptWord';
  if (key === 'F2' && altKey && !ctrlKey) return 'read';
  return null;
}
