import { EnginePool, type EnginePoolOptions } from '@inkling/scheduler';
import type { ClientLimits } from '../clientLimits.js';
import type { PoolView } from '../clientView.js';
import { PoolHost } from '../poolHost.js';
import { type ChromeLike, type ChromeSenderLike, type RuntimeMessageListener, chromeApi } from './chromeApi.js';
import { POOL_PORT, extensionMessage } from './messages.js';
import { runtimePortEndpoint } from './runtimePortEndpoint.js';

/** Options of `hostOffscreenPool`: the pool's, plus where to listen. */
export interface HostOffscreenPoolOptions extends EnginePoolOptions {
  /** The runtime port name clients open. Default `'inkling-pool'` (`extensionPoolClient`'s). */
  portName?: string;
  /** The `chrome` namespace. Default: the global one, looked up when called. */
  chrome?: ChromeLike;
  /** The least time between two snapshot pushes to one client, as `PoolHost`'s. Default `16`. */
  snapshotIntervalMs?: number;
  /**
   * What each client is shown of the pool, by who it is: content scripts run
   * in other sites' pages, so by default every client sees its own jobs in
   * full and only counts of the others' (`'own'`). Return `'all'` for the
   * extension's own page that inspects the whole pool, e.g.
   * `(sender) => (sender.tab ? 'own' : 'all')`. Default: `'own'` for all.
   */
  view?: (sender: ChromeSenderLike | undefined) => PoolView;
  /** What the host takes from one client, as `PoolHost`'s. Default: `ClientLimits`' defaults. */
  limits?: ClientLimits;
}

/**
 * Runs the extension's one pool in its offscreen document (made by
 * `extensionBackground`): serves every `extensionPoolClient` (content
 * scripts, popup, side panel) over runtime ports, each named in the
 * snapshot by where it runs (`tab-<tab id>`, `popup`, `sidepanel`), and
 * tells the service worker it listens, so clients connect only once it
 * does. The document can start Web Workers and has WebGPU, so any engine
 * works here (WebLLM, wllama). A client's port that disconnects (its tab
 * closed, the popup shut) cancels its jobs and lets go of its hold on the
 * model.
 *
 * @example
 * // offscreen.ts, loaded by offscreen.html
 * import { hostOffscreenPool } from '@inkling/shared-pool/extension';
 * hostOffscreenPool({ createEngine: wllamaEngines({ model, wasmUrl }), size: 1 });
 */
export function hostOffscreenPool(options: HostOffscreenPoolOptions): PoolHost {
  const { portName = POOL_PORT, chrome, snapshotIntervalMs, view, limits, ...poolOptions } = options;
  const api = chromeApi(chrome, 'hostOffscreenPool()');
  const host = new PoolHost(new EnginePool(poolOptions), {
    locks: null,
    limits,
    ...(snapshotIntervalMs !== undefined && { snapshotIntervalMs }),
  });
  api.runtime.onConnect.addListener((port) => {
    if (port.name !== portName) return;
    host.serve(runtimePortEndpoint(port, api), { label: labelOf(port.sender), view: view?.(port.sender) ?? 'own' });
  });
  api.runtime.onMessage.addListener(answerPing);
  // Listening now: the service worker lets the clients that asked for this document connect.
  api.runtime.sendMessage({ inkling: 'offscreen-ready' }).catch(() => {});
  return host;
}

/** Tells the service worker this document listens (it asks when it starts again and finds one). */
const answerPing: RuntimeMessageListener = (message, _sender, sendResponse) => {
  if (extensionMessage(message) === 'offscreen-ping') sendResponse({ ready: true });
  return undefined;
};

/** `tab-<id>` for a content script, the page's name for an extension page (`popup`, `sidepanel`). */
function labelOf(sender: ChromeSenderLike | undefined): string | undefined {
  if (typeof sender?.tab?.id === 'number') return `tab-${sender.tab.id}`;
  const page = sender?.url?.match(/([^/?#]+?)(?:\.html?)?(?:[?#].*)?$/)?.[1];
  return page || undefined;
}
