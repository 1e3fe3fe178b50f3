import { EnginePool, type EnginePoolOptions } from '@inkling/scheduler';
import type { LockManagerLike, MessageEndpoint } from './messageEndpoint.js';
import { PoolHost, type PoolHostOptions } from './poolHost.js';

/** The part of a SharedWorker's global scope the host uses. */
export interface SharedWorkerScopeLike {
  addEventListener(type: 'connect', listener: (event: { readonly ports: readonly MessageEndpoint[] }) => void): void;
}

/** Options of `hostSharedWorker`: the pool's, plus where to listen. */
export interface HostSharedWorkerOptions extends EnginePoolOptions {
  /** The worker's global scope. Default: `globalThis` (call it from the worker's script). */
  scope?: SharedWorkerScopeLike;
  /** Web Locks. Default: `navigator.locks`. */
  locks?: LockManagerLike | null;
  /** What each tab is shown of the pool, as `PoolHost`'s. Default `'own'`. */
  view?: PoolHostOptions['view'];
  /** What the host takes from one tab, as `PoolHost`'s. Default: `ClientLimits`' defaults. */
  limits?: PoolHostOptions['limits'];
}

/**
 * Runs the shared pool's host in a SharedWorker: one `EnginePool` for every
 * tab of the origin that opens this worker under the same name. Engines are
 * built in the worker's own thread (Chromium and Safari cannot start workers
 * from a SharedWorker), so `createEngine` must build engines that run where
 * it is called, such as WebLLM's `CreateMLCEngine`; any `CreateEngine` works.
 *
 * @example
 * // poolHost.ts, opened by sharedPool({ worker: () => new SharedWorker(new URL('./poolHost.ts', import.meta.url), { type: 'module', name }) })
 * import { hostSharedWorker } from '@inkling/shared-pool';
 * hostSharedWorker({ createEngine: myEngines(), size: 1 });
 */
export function hostSharedWorker(options: HostSharedWorkerOptions): PoolHost {
  const { scope = globalThis as unknown as SharedWorkerScopeLike, locks, view, limits, ...poolOptions } = options;
  const host = new PoolHost(new EnginePool(poolOptions), { ...(locks !== undefined && { locks }), view, limits });
  scope.addEventListener('connect', (event) => {
    const port = event.ports[0];
    if (port) host.serve(port);
  });
  return host;
}
