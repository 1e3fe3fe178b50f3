import type { MessageEndpoint } from '../messageEndpoint.js';
import { PoolClient, type PoolClientOptions } from '../poolClient.js';
import { type ChromeLike, chromeApi } from './chromeApi.js';
import { extensionPresence } from './extensionPresence.js';
import { type EnsureAnswer, POOL_PORT, messageOf } from './messages.js';
import { runtimePortEndpoint } from './runtimePortEndpoint.js';

/** Options of `extensionPoolClient`: `PoolClient`'s, less `connect` and `locks`, plus where to reach the host. */
export interface ExtensionPoolClientOptions extends Omit<PoolClientOptions, 'connect' | 'locks' | 'presence'> {
  /** The runtime port name `hostOffscreenPool` serves. Default `'inkling-pool'`. */
  portName?: string;
  /** The `chrome` namespace. Default: the global one, looked up when called. */
  chrome?: ChromeLike;
  /** This context's visibility and focus. Default: `extensionPresence()` (a content script follows its tab; a popup or side panel counts as focused while open). */
  presence?: PoolClientOptions['presence'];
}

/**
 * A `PoolClient` for any extension context that shows results: a content
 * script, the popup, the side panel. Before each connection it asks the
 * service worker (`extensionBackground`) for the offscreen document, which
 * makes it again if it was closed and answers once it listens; then it
 * opens a runtime port to it. A port that closes before the host's welcome
 * is retried after a jittered pause that doubles up to 2 s (see
 * `reconnect`), and after 15 s without a host waiting work ends with a
 * `HostUnavailableError`. Web Locks do not cross from a page's content
 * script to the extension, so the port's `disconnect` is how each side
 * learns of the other's end. Hand it to `<PoolProvider pool>`.
 *
 * @example
 * // content.tsx
 * import { extensionPoolClient } from '@inkling/shared-pool/extension';
 * const pool = extensionPoolClient();
 * createRoot(host).render(<PoolProvider pool={pool}><Editor /></PoolProvider>);
 */
export function extensionPoolClient(options: ExtensionPoolClientOptions = {}): PoolClient {
  const { portName = POOL_PORT, chrome, presence, ...clientOptions } = options;
  chromeApi(chrome, 'extensionPoolClient()');
  const connect = async (): Promise<MessageEndpoint> => {
    const api = chromeApi(chrome, 'extensionPoolClient()');
    let refused: string | undefined;
    try {
      const answer = (await api.runtime.sendMessage({ inkling: 'ensure-offscreen' })) as EnsureAnswer | undefined;
      if (answer?.ok !== true) {
        refused = answer?.error ?? 'the service worker did not answer: call extensionBackground() at the top level of its script';
      }
    } catch (error) {
      refused = `the service worker could not be reached (${messageOf(error)})`;
    }
    const endpoint = runtimePortEndpoint(api.runtime.connect({ name: portName }), api);
    return refused === undefined ? endpoint : sayingWhy(endpoint, `no offscreen document (${refused.replace(/\.+$/, '')})`);
  };
  return new PoolClient({ ...clientOptions, presence: presence ?? extensionPresence(), locks: null, connect });
}

/** `endpoint`, whose `close` says `why` (the service worker's answer) instead of the port's own reason. */
function sayingWhy(endpoint: MessageEndpoint, why: string): MessageEndpoint {
  const wrapped = new Map<(event: { data: unknown }) => void, (event: { data: unknown }) => void>();
  return {
    ...endpoint,
    addEventListener: (type, listener) => {
      if (type !== 'close') return endpoint.addEventListener(type, listener);
      const inner = () => listener({ data: why });
      wrapped.set(listener, inner);
      endpoint.addEventListener('close', inner);
    },
    removeEventListener: (type, listener) => endpoint.removeEventListener(type, wrapped.get(listener) ?? listener),
  };
}
