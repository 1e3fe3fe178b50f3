/** Whether a tab is seen and has the keyboard. */
export interface Presence {
  readonly visible: boolean;
  readonly focused: boolean;
}

/** Where a client reads its tab's presence, and hears when it changes. */
export interface PresenceSource {
  get(): Presence;
  /** Returns the function that stops listening. */
  subscribe(listener: () => void): () => void;
}

const ALWAYS: Presence = Object.freeze({ visible: true, focused: true });

interface DocumentLike {
  readonly visibilityState?: string;
  hasFocus?(): boolean;
  addEventListener(type: string, listener: () => void): void;
  removeEventListener(type: string, listener: () => void): void;
}

/**
 * The page's presence: `document.visibilityState` and `document.hasFocus()`,
 * followed through `visibilitychange`, `focus` and `blur`. Where there is no
 * document (a worker, a server) the page counts as visible and focused.
 * Globals are looked up when called, never at import.
 *
 * @example
 * const presence = documentPresence();
 * presence.subscribe(() => console.log(presence.get()));
 */
export function documentPresence(
  doc: DocumentLike | undefined = (globalThis as { document?: DocumentLike }).document,
  win: DocumentLike | undefined = (globalThis as { window?: DocumentLike }).window,
): PresenceSource {
  if (!doc) return { get: () => ALWAYS, subscribe: () => () => {} };
  return {
    get: () => ({ visible: doc.visibilityState !== 'hidden', focused: doc.hasFocus?.() ?? true }),
    subscribe(listener) {
      doc.addEventListener('visibilitychange', listener);
      win?.addEventListener('focus', listener);
      win?.addEventListener('blur', listener);
      return () => {
        doc.removeEventListener('visibilitychange', listener);
        win?.removeEventListener('focus', listener);
        win?.removeEventListener('blur', listener);
      };
    },
  };
}

/**
 * A presence you set by hand: for tests, and for pages that know better than
 * the document (in an extension, `extensionPresence()` from
 * `@inkling/shared-pool/extension` already counts a popup as focused while
 * open).
 *
 * @example
 * const presence = manualPresence({ visible: true, focused: false });
 * presence.set({ visible: false, focused: false });
 */
export function manualPresence(initial: Presence = ALWAYS): PresenceSource & { set(presence: Presence): void } {
  let current = initial;
  const listeners = new Set<() => void>();
  return {
    get: () => current,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    set(presence) {
      current = presence;
      for (const listener of [...listeners]) listener();
    },
  };
}
