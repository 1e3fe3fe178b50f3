import { InvalidOptionError, type Pool, type PoolStatus, type PoolTimers } from '@inkling/scheduler';
import { type Rule, durationRule, firstProblem, globalTimers, isTimers, oneOf, optional, unknownKey } from '@inkling/scheduler/engine';
import { type ClientLimits, clientLimits } from './clientLimits.js';
import type { PoolView } from './clientView.js';
import { type WireStatus, encodeStatus } from './errorCodec.js';
import { type LockManagerLike, type MessageEndpoint, holdLock, platformLocks, randomId, watchLock } from './messageEndpoint.js';
import { SCOPE } from './protocol.js';
import { type ClientHost, ServedClient } from './servedClient.js';

/** Options of `new PoolHost(...)`. */
export interface PoolHostOptions {
  /**
   * The least time between two snapshot pushes to one client, in
   * milliseconds: about a frame. 0 to 2^31-1 (0 pushes every change, in the
   * next task). Default `16`.
   */
  snapshotIntervalMs?: number;
  /**
   * Web Locks. The host holds a lock of its own while it lives, so clients
   * learn of its death (a killed worker, a closed tab) from their request
   * for it being granted; and it learns of a client's death the same way.
   * Default: `navigator.locks` where it exists; `null` turns both off.
   */
  locks?: LockManagerLike | null;
  /** The host's id, part of its lock's name. Default: a random one. */
  hostId?: string;
  /** Timers for the snapshot pushes. Default: the global ones, looked up when used. */
  timers?: PoolTimers;
  /** Clock for the push interval, in milliseconds. Default `performance.now`. */
  now?: () => number;
  /**
   * Where the pool's clock (its `now` option) counts from, in milliseconds
   * since the epoch; clients move job times onto their own clock with it.
   * Default `performance.timeOrigin`.
   */
  timeOrigin?: number;
  /**
   * What each client is shown of the pool (see `PoolView`): `'own'`, its
   * own jobs in full and the others' only as counts per band; `'all'`, every
   * client's jobs, error text included, for an app whose every client is its
   * own (an inspector of the whole pool). `serve(endpoint, { view })` sets it
   * for one client. Default `'own'`.
   */
  view?: PoolView;
  /**
   * What the host takes from one client, at most (see `ClientLimits`): what
   * is over is refused to that client with a `ClientLimitError`. Default:
   * `ClientLimits`' defaults.
   */
  limits?: ClientLimits;
}

/**
 * Serves one pool to many clients (tabs), each over its own endpoint: what a
 * SharedWorker, the tab that hosts the fallback, or an extension's offscreen
 * document runs. Each client's ids, sessions and tasks are kept apart from
 * the others' (supersession never crosses tabs), its jobs carry its id as
 * `owner`, and their band follows its presence (`tabPriority`). A client
 * sees its own jobs and only counts of the others' (`view`), and what it
 * sends is bounded (`limits`). The model is
 * loaded while at least one client holds it (`load`) and unloaded after the
 * last lets go (`unload`, or the tab closing).
 *
 * @example
 * const pool = new EnginePool({ createEngine: webllmEngines({ model }) });
 * const host = new PoolHost(pool);
 * self.addEventListener('connect', (event) => host.serve(event.ports[0]));
 */
export class PoolHost {
  readonly pool: Pool;
  readonly #clients = new Set<ServedClient>();
  readonly #holders = new Set<ServedClient>();
  readonly #locks: LockManagerLike | null;
  readonly #lock: { name: string; release: () => void } | undefined;
  readonly #context: ClientHost;
  readonly #view: PoolView;
  readonly #unsubscribe: () => void;
  #wired: { status: PoolStatus; wire: WireStatus } | undefined;
  #nextClient = 0;

  constructor(pool: Pool, options: PoolHostOptions = {}) {
    checkOptions(pool, options);
    this.pool = pool;
    this.#view = options.view ?? 'own';
    const hostId = options.hostId ?? randomId();
    this.#locks = options.locks === undefined ? platformLocks() : options.locks;
    let held: Promise<void> = Promise.resolve();
    if (this.#locks) {
      const name = `inkling-pool-host:${hostId}`;
      const lock = holdLock(this.#locks, name);
      this.#lock = { name, release: lock.release };
      held = lock.held;
    }
    const lockName = this.#lock?.name;
    const now = options.now ?? (() => performance.now());
    this.#context = {
      pool,
      timers: options.timers ?? globalTimers,
      now,
      snapshotIntervalMs: options.snapshotIntervalMs ?? 16,
      limits: clientLimits(options.limits),
      ready: held.then(() => ({ hostId, lock: lockName, timeOrigin: options.timeOrigin ?? performance.timeOrigin })),
      wire: (status) => this.#wire(status),
      hold: (client, holding) => this.#hold(client, holding),
      drop: (client) => {
        this.#clients.delete(client);
      },
      watch: (lock, onGone) => (this.#locks ? watchLock(this.#locks, lock, onGone) : () => {}),
    };
    this.#unsubscribe = pool.subscribe(() => {
      for (const client of this.#clients) client.schedulePush();
    });
  }

  /** Clients served now. */
  get clients(): number {
    return this.#clients.size;
  }

  /**
   * Serves one client over `endpoint`. `label` names it in the snapshot
   * (`JobInfo.owner`), made unique with a number; default: `tab-<n>`,
   * numbered from 1 by this host. `view` is what it is shown of the pool;
   * default: the host's `view`.
   *
   * @example
   * host.serve(port, { label: 'popup', view: 'all' });
   */
  serve(endpoint: MessageEndpoint, info: { label?: string; view?: PoolView } = {}): ServedClient {
    this.#nextClient += 1;
    const taken = (id: string) => [...this.#clients].some((c) => c.id === id);
    // The scope separator never appears in a client's id: one id is then never the start of another's keys.
    let id = info.label?.replaceAll(SCOPE, '-') || `tab-${this.#nextClient}`;
    if (taken(id)) id = `${id}-${this.#nextClient}`;
    const client = new ServedClient(this.#context, endpoint, id, info.view === 'all' || info.view === 'own' ? info.view : this.#view);
    this.#clients.add(client);
    return client;
  }

  /** Ends every client, stops listening to the pool and lets the host's lock go (clients see the host lost). */
  close(): void {
    for (const client of [...this.#clients]) client.close();
    this.#unsubscribe();
    this.#lock?.release();
  }

  #wire(status: PoolStatus): WireStatus {
    if (this.#wired?.status !== status) this.#wired = { status, wire: encodeStatus(status) };
    return this.#wired.wire;
  }

  async #hold(client: ServedClient, holding: boolean): Promise<void> {
    if (holding) {
      this.#holders.add(client);
      return;
    }
    if (!this.#holders.delete(client) || this.#holders.size > 0) return;
    await this.pool.unload();
  }
}

function checkOptions(pool: Pool, options: PoolHostOptions): void {
  if (typeof pool?.submit !== 'function' || typeof pool.subscribe !== 'function') {
    throw new InvalidOptionError(
      'PoolHost serves a pool: pass an EnginePool (or any Pool), e.g. new PoolHost(new EnginePool({ createEngine })).',
    );
  }
  const problem =
    unknownKey(options, HOST_RULES, 'PoolHost ', ['locks', 'hostId', 'now', 'timeOrigin', 'limits']) ??
    firstProblem(options, HOST_RULES, 'PoolHost ');
  if (problem) throw new InvalidOptionError(problem);
}

/** `PoolHost`'s options, checked in this order. */
const HOST_RULES: readonly Rule[] = [
  durationRule('snapshotIntervalMs', { never: false }),
  ['view', optional(oneOf('own', 'all')), '"own" or "all"'],
  ['timers', optional(isTimers), 'an object with setTimeout and clearTimeout functions'],
];

/**
 * Serves `pool` to the one client at the other end of `endpoint`: the
 * smallest host, for a pool in a dedicated worker or an iframe. For many
 * clients build one `PoolHost` and call `serve` for each.
 *
 * @example
 * const { port1, port2 } = new MessageChannel();
 * servePool(pool, port1);
 * const client = new PoolClient({ connect: () => port2 });
 */
export function servePool(pool: Pool, endpoint: MessageEndpoint, clientInfo: { label?: string; view?: PoolView } = {}): ServedClient {
  return new PoolHost(pool).serve(endpoint, clientInfo);
}
