import { InvalidOptionError } from '@inkling/scheduler';

/** A `chrome.events.Event`, as far as the pool uses one. */
export interface ChromeEventLike<Listener> {
  addListener(listener: Listener): void;
  removeListener(listener: Listener): void;
}

/** Who opened a runtime port or sent a message: a tab's content script, or an extension page (popup, side panel). */
export interface ChromeSenderLike {
  readonly tab?: { readonly id?: number };
  readonly url?: string;
}

/** The part of `chrome.runtime.Port` the pool uses. */
export interface RuntimePortLike {
  readonly name: string;
  readonly sender?: ChromeSenderLike;
  postMessage(message: unknown): void;
  disconnect(): void;
  readonly onMessage: ChromeEventLike<(message: unknown) => void>;
  readonly onDisconnect: ChromeEventLike<() => void>;
}

/** A `runtime.onMessage` listener: returns `true` to answer later through `sendResponse`. */
export type RuntimeMessageListener = (
  message: unknown,
  sender: ChromeSenderLike,
  sendResponse: (response: unknown) => void,
) => boolean | undefined;

/**
 * The part of the `chrome` namespace the extension entry uses, typed here so
 * the package needs no `@types/chrome`: pass the real `chrome` (or a fake in
 * tests) as `chrome`, or leave it out to use the global one, looked up when
 * called. `offscreen` and `runtime.getContexts` are only needed where the
 * offscreen document is made (the service worker).
 */
export interface ChromeLike {
  readonly runtime: {
    connect(info: { name: string }): RuntimePortLike;
    sendMessage(message: unknown): Promise<unknown>;
    getURL(path: string): string;
    getContexts?(filter: { contextTypes: string[]; documentUrls?: string[] }): Promise<readonly unknown[]>;
    readonly lastError?: { readonly message?: string } | undefined;
    readonly onConnect: ChromeEventLike<(port: RuntimePortLike) => void>;
    readonly onMessage: ChromeEventLike<RuntimeMessageListener>;
  };
  readonly offscreen?: {
    createDocument(parameters: { url: string; reasons: string[]; justification: string }): Promise<void>;
    closeDocument?(): Promise<void>;
    hasDocument?(): Promise<boolean>;
  };
}

/** `given`, or the global `chrome`; a typed error where there is neither (not an extension context). */
export function chromeApi(given: ChromeLike | undefined, what: string): ChromeLike {
  const api = given ?? (globalThis as { chrome?: ChromeLike }).chrome;
  if (typeof api?.runtime?.connect !== 'function') {
    throw new InvalidOptionError(
      `${what} runs in a browser extension (a content script, popup, side panel, offscreen document or service worker) and uses chrome.runtime, which is not here. Pass { chrome } if the namespace is elsewhere (browser.* behind a polyfill).`,
    );
  }
  return api;
}
