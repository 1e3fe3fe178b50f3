import { type EnginePoolOptions, InvalidOptionError } from '@inkling/scheduler';
import { type BroadcastChannelLike, type OpenChannel, broadcastClientEndpoint } from './broadcastEndpoints.js';
import { channelName, electTabHost } from './electTabHost.js';
import { type ErrorClasses, unknownKey } from '@inkling/scheduler/engine';
import { HostUnavailableError } from './errors.js';
import { type LockManagerLike, type MessageEndpoint, platformLocks, post } from './messageEndpoint.js';
import { PoolClient, type PoolClientOptions } from './poolClient.js';
import type { PresenceSource } from './presence.js';
import type { ClientLimits } from './clientLimits.js';
import type { PoolView } from './clientView.js';

/** Where a shared pool's engines run. */
export type SharedPoolMode = 'shared-worker' | 'tab';

/** Options of `sharedPool`. */
export interface SharedPoolOptions {
  /** The pool's name: every tab of the origin using the same name shares one pool. Required. */
  name: string;
  /**
   * Opens the SharedWorker that runs `hostSharedWorker`, e.g.
   * `() => new SharedWorker(new URL('./poolHost.js', import.meta.url), { type: 'module', name })`.
   * If the worker fires `error` (its script failed to load or threw), or its
   * port gives no welcome within `reconnect.handshakeTimeoutMs` (a tab that
   * attaches to a worker whose script threw gets no `error` event), the
   * tab-hosted pool takes over where `pool` is given. Default: none (the
   * tab-hosted pool is used).
   */
  worker?: () => { readonly port: MessageEndpoint; addEventListener?(type: 'error', listener: () => void): void };
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
  /** How to look for a host that does not answer, as `PoolClient`'s. Default: `PoolClient`'s defaults. */
  reconnect?: PoolClientOptions['reconnect'];
  /**
   * What each tab is shown of the tab-hosted pool (`PoolHost`'s `view`):
   * `'own'`, its own jobs and counts of the others'; `'all'`, every tab's
   * jobs. A SharedWorker host takes it in `hostSharedWorker({ view })`.
   * Default `'own'`.
   */
  view?: PoolView;
  /** What the tab-hosted pool takes from one tab (`PoolHost`'s `limits`). Default: `ClientLimits`' defaults. */
  limits?: ClientLimits;
}

/**
 * A `PoolClient` that knows how it was set up: `mode` says where the engines
 * run now, `isHost()` whether this tab hosts them. `sharedPool` makes it.
 *
 * @example
 * const pool = sharedPool({ name: 'notes', worker, pool: { createEngine } });
 * console.log(pool.mode, pool.isHost());
 */
export class SharedPool extends PoolClient {
  readonly #mode: () => SharedPoolMode;
  readonly #workerError: () => HostUnavailableError | undefined;

  /**
   * @param mode where the engines run now (a SharedWorker that cannot start gives way to the tab-hosted pool)
   * @param isHost whether this tab hosts the pool now (always false with a SharedWorker)
   * @param workerError why the SharedWorker was given up, if it was
   */
  constructor(
    options: ConstructorParameters<typeof PoolClient>[0],
    mode: () => SharedPoolMode,
    readonly isHost: () => boolean,
    workerError: () => HostUnavailableError | undefined = () => undefined,
  ) {
    super(options);
    this.#mode = mode;
    this.#workerError = workerError;
  }

  /**
   * Why this tab gave the SharedWorker up (its `error` event, or a port
   * that gave no welcome within `reconnect.handshakeTimeoutMs`); undefined
   * while it serves, or when none was used.
   */
  get workerError(): HostUnavailableError | undefined {
    return this.#workerError();
  }

  /** Where the engines run now. */
  get mode(): SharedPoolMode {
    return this.#mode();
  }
}

/** Every option of `sharedPool` (it has no rule table: its checks depend on one another). */
const SHARED_POOL_OPTIONS = [
  'name',
  'worker',
  'pool',
  'mode',
  'errorClasses',
  'presence',
  'locks',
  'openChannel',
  'reconnect',
  'view',
  'limits',
];

/**
 * One pool per origin and name, for the page: a `Pool` to hand to
 * `<PoolProvider>`. With a SharedWorker the engines live in it (see
 * `hostSharedWorker`); without one, with `mode: 'tab'`, or when the worker
 * cannot start (its `error` event), one tab, chosen by Web Locks, builds the
 * pool and the others reach it over a `BroadcastChannel`; when it closes the
 * next tab takes over and queued work moves there. Nothing starts until the
 * pool is first used.
 *
 * @example
 * export const pool = sharedPool({
 *   name: 'notes',
 *   worker: () => new SharedWorker(new URL('./poolHost.js', import.meta.url), { type: 'module', name: 'notes' }),
 *   pool: { createEngine: myEngines() }, // where there is no SharedWorker, or it fails
 * });
 */
export function sharedPool(options: SharedPoolOptions): SharedPool {
  if (typeof options?.name !== 'string' || options.name === '') {
    throw new InvalidOptionError('sharedPool() needs a name: tabs that use the same name share one pool, e.g. { name: "notes" }.');
  }
  const unknown = unknownKey(options, [], 'sharedPool() ', SHARED_POOL_OPTIONS);
  if (unknown) throw new InvalidOptionError(unknown);
  const { name, worker, mode = 'auto' } = options;
  const hasSharedWorker = typeof (globalThis as { SharedWorker?: unknown }).SharedWorker === 'function';
  let current: SharedPoolMode = mode === 'auto' ? (worker && hasSharedWorker ? 'shared-worker' : 'tab') : mode;
  if (current === 'shared-worker' && typeof worker !== 'function') {
    throw new InvalidOptionError(
      'sharedPool({ mode: "shared-worker" }) needs worker: () => new SharedWorker(url, { type: "module", name }).',
    );
  }
  const tab = typeof options.pool?.createEngine === 'function' ? tabHosting(name, options) : 'no pool';
  if (current === 'tab' && typeof tab === 'string') {
    throw new InvalidOptionError(
      tab === 'no pool'
        ? `sharedPool({ name: "${name}" }) has no SharedWorker to use here, so one tab hosts the pool: give pool: { createEngine } for it to build.`
        : tab,
    );
  }
  let workerError: HostUnavailableError | undefined;
  const giveUpWorker = (error: HostUnavailableError) => {
    workerError ??= error;
    if (typeof tab !== 'string') current = 'tab';
  };
  const connect = (lastMiss?: HostUnavailableError): MessageEndpoint => {
    // The worker's port said nothing (or closed) before a welcome: its script threw or hangs.
    if (lastMiss && current === 'shared-worker')
      giveUpWorker(new HostUnavailableError(`The shared pool's SharedWorker did not answer. ${lastMiss.message}`, { cause: lastMiss }));
    if (current === 'shared-worker' && !workerError) {
      return workerEndpoint(worker as NonNullable<typeof worker>, () =>
        giveUpWorker(
          new HostUnavailableError(
            'The shared pool\'s SharedWorker fired "error" as it started: its script failed to load or threw (see the console).',
          ),
        ),
      );
    }
    if (typeof tab === 'string') {
      throw new InvalidOptionError(
        `The SharedWorker of the shared pool could not start (${workerError?.message ?? 'see the console'}), and no pool: { createEngine } was given for a tab to host instead.`,
      );
    }
    return tab.connect();
  };
  const locks = options.locks ?? platformLocks() ?? undefined;
  const isHost = () => typeof tab !== 'string' && tab.isHost();
  const { errorClasses, presence, reconnect } = options;
  return new SharedPool(
    { errorClasses, presence, locks, connect, reconnect },
    () => current,
    isHost,
    () => workerError,
  );
}

/** The tab-hosted pool's connector, or why this browser cannot have one. */
function tabHosting(name: string, options: SharedPoolOptions): { connect: () => MessageEndpoint; isHost: () => boolean } | string {
  const locks = options.locks ?? platformLocks();
  const BroadcastChannelClass = (globalThis as unknown as { BroadcastChannel?: new (name: string) => BroadcastChannelLike })
    .BroadcastChannel;
  const open = options.openChannel ?? (BroadcastChannelClass ? (channel: string) => new BroadcastChannelClass(channel) : undefined);
  if (!locks || !open)
    return 'A tab-hosted shared pool needs Web Locks (navigator.locks) and BroadcastChannel; this browser lacks one of them.';
  let election: ReturnType<typeof electTabHost> | undefined;
  return {
    connect: () => {
      election ??= electTabHost({ name, pool: options.pool as EnginePoolOptions, locks, open, view: options.view, limits: options.limits });
      return broadcastClientEndpoint(channelName(name), open);
    },
    isHost: () => election?.hosting === true,
  };
}

/**
 * The port of a new SharedWorker, whose `close` also fires when the worker
 * cannot start (its script failed to load or threw): the client then looks
 * for a host again, and `onError` decides where.
 */
function workerEndpoint(open: NonNullable<SharedPoolOptions['worker']>, onError: () => void): MessageEndpoint {
  const shared = open();
  const { port } = shared;
  const closers = new Set<(event: { data: unknown }) => void>();
  shared.addEventListener?.('error', () => {
    onError();
    for (const listener of [...closers]) listener({ data: undefined });
  });
  return {
    postMessage: (message) => post(port, message),
    addEventListener: (type, listener) => {
      if (type === 'close') closers.add(listener);
      port.addEventListener(type, listener);
    },
    removeEventListener: (type, listener) => {
      closers.delete(listener);
      port.removeEventListener(type, listener);
    },
    start: () => port.start?.(),
    close: () => port.close?.(),
  };
}
