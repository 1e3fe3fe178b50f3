/**
 * The runtime port name `extensionPoolClient` opens and `hostOffscreenPool`
 * serves (both take `portName` to use another).
 *
 * @example
 * chrome.runtime.onConnect.addListener((port) => console.log(port.name === POOL_PORT));
 */
export const POOL_PORT = 'inkling-pool';

/**
 * The messages of the extension entry on `runtime.sendMessage`, told apart
 * from an app's own by their `inkling` field: a client asks the service
 * worker for the offscreen document, the worker asks a document whether it
 * listens, a document says it does.
 */
export type ExtensionMessage =
  | { readonly inkling: 'ensure-offscreen' }
  | { readonly inkling: 'offscreen-ping' }
  | { readonly inkling: 'offscreen-ready' };

/** The answer to `ensure-offscreen`. */
export type EnsureAnswer = { readonly ok: true } | { readonly ok: false; readonly error: string };

/** `message` if it is one of the entry's own. */
export function extensionMessage(message: unknown): ExtensionMessage['inkling'] | undefined {
  const kind = typeof message === 'object' && message !== null ? (message as { inkling?: unknown }).inkling : undefined;
  return kind === 'ensure-offscreen' || kind === 'offscreen-ping' || kind === 'offscreen-ready' ? kind : undefined;
}

/** What an error says, whatever was thrown. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
