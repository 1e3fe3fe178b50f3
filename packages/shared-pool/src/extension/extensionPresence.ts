import { type PresenceSource, documentPresence } from '../presence.js';

interface DocumentLike {
  readonly visibilityState?: string;
  hasFocus?(): boolean;
  addEventListener(type: string, listener: () => void): void;
  removeEventListener(type: string, listener: () => void): void;
}

/**
 * The presence that fits where the client runs, for an extension: a
 * content script follows its tab (the page's visibility and focus, as
 * `documentPresence`), so only the tab the person types in outranks the
 * others; an extension page (popup, side panel, options page) counts as
 * focused while it is visible, since it is open because the person is
 * using it even while the keyboard is in the page beside it. Globals are
 * looked up when called.
 *
 * @example
 * const pool = extensionPoolClient({ presence: extensionPresence() }); // the default
 */
export function extensionPresence(
  doc: DocumentLike | undefined = (globalThis as { document?: DocumentLike }).document,
  win: DocumentLike | undefined = (globalThis as { window?: DocumentLike }).window,
  location: { readonly protocol: string } | undefined = (globalThis as { location?: { protocol: string } }).location,
): PresenceSource {
  const page = documentPresence(doc, win);
  if (!doc || !(location?.protocol ?? '').endsWith('-extension:')) return page;
  return {
    get: () => {
      const visible = page.get().visible;
      return { visible, focused: visible };
    },
    subscribe: (listener) => page.subscribe(listener),
  };
}
