import { EnginePool, type EnginePoolOptions } from '@inkling/scheduler';
import { type OpenChannel, broadcastHost } from './broadcastEndpoints.js';
import { type LockManagerLike, randomId } from './messageEndpoint.js';
import { PoolHost, type PoolHostOptions } from './poolHost.js';

/** Options of `electTabHost`. */
export interface ElectTabHostOptions {
  /** The pool's name: tabs with the same name share one pool. Required. */
  name: string;
  /** The pool the winning tab builds (its `createEngine` runs in that page). Required. */
  pool: EnginePoolOptions;
  /** Web Locks (`navigator.locks`). Required. */
  locks: LockManagerLike;
  /** Opens a broadcast channel (`(name) => new BroadcastChannel(name)`). Required. */
  open: OpenChannel;
  /** What each tab is shown of the pool, as `PoolHost`'s. Default `'own'`. */
  view?: PoolHostOptions['view'];
  /** What the host takes from one tab, as `PoolHost`'s. Default: `ClientLimits`' defaults. */
  limits?: PoolHostOptions['limits'];
}

/** The channel the tab-hosted pool speaks on. */
export function channelName(name: string): string {
  return `inkling-pool:${name}`;
}

/**
 * Stands this tab for election as the host of pool `name`: the first tab to
 * take the Web Lock `inkling-pool-elect:<name>` builds the `EnginePool` and
 * serves every tab over the channel; the others wait in the lock's queue,
 * and the next one takes over when the host tab closes. Returns a handle to
 * step down (`stop`) and to ask whether this tab hosts now.
 *
 * @example
 * const election = electTabHost({ name: 'notes', pool: { createEngine }, locks: navigator.locks, open: (n) => new BroadcastChannel(n) });
 */
export function electTabHost(options: ElectTabHostOptions): { readonly hosting: boolean; stop(): void } {
  const stop = new AbortController();
  let hosting = false;
  options.locks
    .request(`inkling-pool-elect:${options.name}`, { signal: stop.signal }, async () => {
      const hostId = randomId();
      const pool = new EnginePool(options.pool);
      const host = new PoolHost(pool, { locks: options.locks, hostId, view: options.view, limits: options.limits });
      const close = broadcastHost(channelName(options.name), options.open, hostId, (endpoint) => host.serve(endpoint));
      hosting = true;
      await new Promise((resolve) => stop.signal.addEventListener('abort', resolve, { once: true }));
      hosting = false;
      host.close();
      close();
      await pool.unload();
    })
    .catch(() => {});
  return {
    get hosting() {
      return hosting;
    },
    stop: () => stop.abort(),
  };
}
