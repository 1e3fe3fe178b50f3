import type { MessageEndpoint } from '../messageEndpoint.js';
import type { ChromeLike, RuntimePortLike } from './chromeApi.js';

type Listener = (event: { data: unknown }) => void;

/**
 * A `MessageEndpoint` over an extension's `runtime.Port` (messages cross as
 * JSON there; the pool's protocol sends plain data only). The port's
 * `onDisconnect` becomes `close`, its `data` the reason Chrome gives
 * (`runtime.lastError`, read so it is not logged as unchecked), e.g.
 * "Could not establish connection. Receiving end does not exist." when no
 * document listens yet. `extensionPoolClient` and `hostOffscreenPool` use
 * it; you need it only to wire a host or client of your own.
 *
 * @example
 * chrome.runtime.onConnect.addListener((port) => host.serve(runtimePortEndpoint(port)));
 */
export function runtimePortEndpoint(port: RuntimePortLike, chrome?: Pick<ChromeLike, 'runtime'>): MessageEndpoint {
  const listeners = { message: new Set<Listener>(), close: new Set<Listener>() };
  port.onMessage.addListener((data) => {
    for (const listener of [...listeners.message]) listener({ data });
  });
  port.onDisconnect.addListener(() => {
    const api = chrome ?? (globalThis as { chrome?: Pick<ChromeLike, 'runtime'> }).chrome;
    const reason = api?.runtime.lastError?.message;
    for (const listener of [...listeners.close]) listener({ data: reason });
  });
  return {
    postMessage: (message) => port.postMessage(message),
    addEventListener: (type, listener) => listeners[type].add(listener),
    removeEventListener: (type, listener) => listeners[type].delete(listener),
    close: () => port.disconnect(),
  };
}
