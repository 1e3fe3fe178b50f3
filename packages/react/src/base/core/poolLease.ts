import { type Pool, type PoolTimers } from '@inkling/scheduler';
import { checkDuration, globalTimers } from '@inkling/scheduler/engine';

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
  /** The timers the delayed unload runs on. Default: `globalTimers` (the platform's). */
  timers?: PoolTimers;
}

/**
 * One pool's holders, counted: the first to arrive cancels a pending unload,
 * the last to leave schedules one (if a holder asked to load and the delay
 * is finite).
 */
class PoolLease {
  /** Holders now. */
  #mounts = 0;
  /** Whether a holder asked to load since the last unload. */
  #loadRequested = false;
  /** The delay and timers the latest holder asked for. */
  #unloadDelayMs = 1000;
  #timers: PoolTimers = globalTimers;
  #timer: { handle: unknown; timers: PoolTimers } | undefined;
  readonly #pool: Pool;

  constructor(pool: Pool) {
    this.#pool = pool;
  }

  retain(load: boolean, unloadDelayMs: number, timers: PoolTimers): () => void {
    this.#unloadDelayMs = unloadDelayMs;
    this.#timers = timers;
    this.#mounts += 1;
    if (this.#timer) {
      this.#timer.timers.clearTimeout(this.#timer.handle);
      this.#timer = undefined;
    }
    if (load) {
      this.#loadRequested = true;
      // A failed load is state (`phase: 'error'`), not an unhandled rejection.
      this.#pool.load().catch(() => {});
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#mounts -= 1;
      if (this.#mounts === 0) this.#scheduleUnload();
    };
  }

  #scheduleUnload(): void {
    if (!this.#loadRequested || !Number.isFinite(this.#unloadDelayMs)) return;
    const timers = this.#timers;
    const handle = timers.setTimeout(() => {
      this.#timer = undefined;
      this.#loadRequested = false;
      void this.#pool.unload();
    }, this.#unloadDelayMs);
    this.#timer = { handle, timers };
  }
}

const leases = new WeakMap<Pool, PoolLease>();

/**
 * Holds a pool. The first holder that asks loads it; when the last lets go,
 * the pool is unloaded after a delay, and a holder arriving within it
 * cancels that. So React StrictMode's mount, unmount, mount (or a quick
 * remount) loads the model once. Holders are counted per pool. Returns the
 * release function (calling it again does nothing). Throws an
 * `InvalidOptionError` for an `unloadDelayMs` a timer cannot honour, before
 * holding anything.
 *
 * @example
 * useEffect(() => retainPool(pool, { load: true }), [pool]);
 */
export function retainPool(pool: Pool, options: RetainPoolOptions = {}): () => void {
  const { load = true, unloadDelayMs = 1000, timers = globalTimers } = options;
  checkDuration(unloadDelayMs, 'retainPool() "unloadDelayMs"');
  let lease = leases.get(pool);
  if (!lease) {
    lease = new PoolLease(pool);
    leases.set(pool, lease);
  }
  return lease.retain(load, unloadDelayMs, timers);
}
