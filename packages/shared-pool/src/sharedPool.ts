import { type EnginePoolOptions, InvalidOptionError } from '@inkling/scheduler';
import { type BroadcastChannelLike, type OpenChannel, broadcastClientEndpoint } from './broadcastEndpoints.js';
import { channelName, electTabHost } from './electTabHost.js';
import type { ErrorClasses } from './errorCodec.js';
import { type LockManagerLike, type MessageEndpoint, platformLocks } from './messageEndpoint.js';
import { PoolClient } from './poolClient.js';
import type { PresenceSource } from './presence.js';

/** Where a shared pool's engines run. */
export type SharedPoolMode = 'shared-worker' | 'tab';

/** Options of `sharedPool`. */
export interface SharedPoolOptions {
  /** The pool's name: every tab of the origin using the same name shares one pool. Required. */
  name: string;
  /**
   * Opens the SharedWorker that runs `hostSharedWorker`, e.g.
   * `() => new SharedWorker(new URL('./poolHost.js', import.meta.url), { type: 'module', name })`.
   * Default: none (the tab-hosted pool is used).
   */
  worker?: () => { readonly port: MessageEndpoint };
  /**
   * The pool a tab builds when it hosts (the fallback): `createEngine` runs in
   * that page, so engines that start their own Web Worker (wllama) work.
   * Default: none (then `worker` is required).
   */
  pool?: EnginePoolOptions;
  /**
   * `'shared-worker'` or `'tab'` to force one; `'auto'` takes the SharedWorker
   * where the browser has one and `worker` is given, else the tab-hosted
   * pool. Default `'auto'`.
   */
  mode?: SharedPoolMode | 'auto';
  /** Error classes to rebuild besides the built-in ones, by name. Default: none. */
  errorClasses?: ErrorClasses;
  /** This tab's visibility and focus. Default: `documentPresence()`. */
  presence?: PresenceSource;
  /** Web Locks. Default: `navigator.locks`. */
  locks?: LockManagerLike;
  /** Opens a broadcast channel (the fallback's transport). Default: `new BroadcastChannel(name)`. */
  openChannel?: OpenChannel;
}

/**
 * A `PoolClient` that knows how it was set up: `mode` says where the engines
 * run, `isHost()` whether this tab hosts them now. `sharedPool` makes it.
 *
 * @example
 * const pool = sharedPool({ name: 'notes', worker, pool: { createEngine } });
 * console.log(pool.mode, pool.isHost());
 */
export class SharedPool extends PoolClient {
  /**
   * @param mode where the engines run
   * @param isHost whether this tab hosts the pool now (always false with a SharedWorker)
   */
  constructor(
    options: ConstructorParameters<typeof PoolClient>[0],
    readonly mode: SharedPoolMode,
    readonly isHost: () => boolean,
  ) {
    super(options);
  }
}

/**
 * One pool per origin and name, for the page: a `Pool` to hand to
 * `<PoolProvider>`. With a SharedWorker the engines live in it (see
 * `hostSharedWorker`); without one, or with `mode: 'tab'`, one tab, chosen
 * by Web Locks, builds the pool and the others reach it over a
 * `BroadcastChannel`; when it closes the next tab takes over and queued work
 * moves there. Nothing starts until the pool is first used.
 *
 * @example
 * export const pool = sharedPool({
 *   name: 'notes',
 *   worker: () => new SharedWorker(new URL('./poolHost.js', import.meta.url), { type: 'module', name: 'notes' }),
 *   pool: { createEngine: wllamaEngines({ model }) }, // for browsers without SharedWorker
 * });
 */
export function sharedPool(options: SharedPoolOptions): SharedPool {
  if (typeof options?.name !== 'string' || options.name === '') {
    throw new InvalidOptionError('sharedPool() needs a name: tabs that use the same name share one pool, e.g. { name: "notes" }.');
  }
  const { name, worker, mode = 'auto' } = options;
  const hasSharedWorker = typeof (globalThis as { SharedWorker?: unknown }).SharedWorker === 'function';
  const chosen: SharedPoolMode = mode === 'auto' ? (worker && hasSharedWorker ? 'shared-worker' : 'tab') : mode;
  const common = { errorClasses: options.errorClasses, presence: options.presence, locks: options.locks };
  if (chosen === 'shared-worker') {
    if (typeof worker !== 'function') {
      throw new InvalidOptionError('sharedPool({ mode: "shared-worker" }) needs worker: () => new SharedWorker(url, { type: "module", name }).');
    }
    return new SharedPool({ ...common, connect: () => worker().port }, chosen, () => false);
  }
  if (typeof options.pool?.createEngine !== 'function') {
    throw new InvalidOptionError(
      `sharedPool({ name: "${name}" }) has no SharedWorker to use here, so one tab hosts the pool: give pool: { createEngine } for it to build.`,
    );
  }
  const locks = options.locks ?? platformLocks();
  const BroadcastChannelClass = (globalThis as unknown as { BroadcastChannel?: new (name: string) => BroadcastChannelLike }).BroadcastChannel;
  const open = options.openChannel ?? (BroadcastChannelClass ? (channel: string) => new BroadcastChannelClass(channel) : undefined);
  if (!locks || !open) {
    throw new InvalidOptionError('A tab-hosted shared pool needs Web Locks (navigator.locks) and BroadcastChannel; this browser lacks one of them.');
  }
  let election: ReturnType<typeof electTabHost> | undefined;
  const connect = () => {
    election ??= electTabHost({ name, pool: options.pool as EnginePoolOptions, locks, open });
    return broadcastClientEndpoint(channelName(name), open);
  };
  return new SharedPool({ ...common, locks, connect }, chosen, () => election?.hosting === true);
}
