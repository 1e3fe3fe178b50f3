import { type Pool, Subscribable, checkDuration } from '@inkling/scheduler';

/** Options of `retainPool`. */
export interface RetainPoolOptions {
  /** Load the pool (once, however many retain it). Default `true`. */
  load?: boolean;
  /**
   * After the last holder releases a pool that a holder loaded, unload it this
   * many milliseconds later unless someone retains it again meanwhile.
   * `Infinity` keeps it loaded. Default `1000`.
   */
  unloadDelayMs?: number;
}

/**
 * One pool's holders, as the listeners of a `Subscribable`: the first to
 * arrive cancels a pending unload, the last to leave schedules one (if a
 * holder asked to load and the delay is finite).
 */
class PoolLease extends Subscribable {
  /** Whether a holder asked to load since the last unload. */
  #loadRequested = false;
  /** The delay the latest holder asked for. */
  #unloadDelayMs = 1000;
  #timer: ReturnType<typeof setTimeout> | undefined;
  readonly #pool: Pool;

  constructor(pool: Pool) {
    super();
    this.#pool = pool;
  }

  retain(load: boolean, unloadDelayMs: number): () => void {
    this.#unloadDelayMs = unloadDelayMs;
    // A fresh function per holder: each counts once.
    const release = this.subscribe(() => {});
    if (load) {
      this.#loadRequested = true;
      // A failed load is state (`phase: 'error'`), not an unhandled rejection.
      this.#pool.load().catch(() => {});
    }
    return release;
  }

  protected override onSubscribe(): void {
    clearTimeout(this.#timer); // a no-op when none is pending
  }

  protected override onUnsubscribe(): void {
    if (!this.#loadRequested || !Number.isFinite(this.#unloadDelayMs)) return;
    this.#timer = setTimeout(() => {
      this.#loadRequested = false;
      void this.#pool.unload();
    }, this.#unloadDelayMs);
  }
}

const leases = new WeakMap<Pool, PoolLease>();

/**
 * Holds a pool. The first holder that asks loads it; when the last lets go,
 * the pool is unloaded after a delay, and a holder arriving within it
 * cancels that. So React StrictMode's mount, unmount, mount (or a quick
 * remount) loads the model once. Holders are the listeners of one
 * `Subscribable` per pool. Returns the release function (calling it again
 * does nothing). Throws an `InvalidOptionError` for an `unloadDelayMs` a
 * timer cannot honour, before holding anything.
 *
 * @example
 * useEffect(() => retainPool(pool, { load: true }), [pool]);
 */
export function retainPool(pool: Pool, options: RetainPoolOptions = {}): () => void {
  const { load = true, unloadDelayMs = 1000 } = options;
  checkDuration(unloadDelayMs, 'retainPool() "unloadDelayMs"');
  let lease = leases.get(pool);
  if (!lease) {
    lease = new PoolLease(pool);
    leases.set(pool, lease);
  }
  return lease.retain(load, unloadDelayMs);
}
