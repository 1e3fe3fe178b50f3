import { type Pool, checkDuration } from '@inkling/scheduler';

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

interface Lease {
  holders: number;
  loadRequested: boolean;
  unloadDelayMs: number;
  timer: ReturnType<typeof setTimeout> | undefined;
}

const leases = new WeakMap<Pool, Lease>();

/**
 * Counts who holds a pool. The first holder that asks loads it; when the
 * last lets go, the pool is unloaded after a delay, and a holder arriving
 * within it cancels that. So React StrictMode's mount, unmount, mount (or a
 * quick remount) loads the model once. Returns the release function. Throws
 * an `InvalidOptionError` for an `unloadDelayMs` a timer cannot honour.
 *
 * @example
 * useEffect(() => retainPool(pool, { load: true }), [pool]);
 */
export function retainPool(pool: Pool, options: RetainPoolOptions = {}): () => void {
  const { load = true, unloadDelayMs = 1000 } = options;
  checkDuration(unloadDelayMs, 'retainPool() "unloadDelayMs"');
  let lease = leases.get(pool);
  if (!lease) {
    lease = { holders: 0, loadRequested: false, unloadDelayMs, timer: undefined };
    leases.set(pool, lease);
  }
  const held = lease;
  held.holders += 1;
  held.unloadDelayMs = unloadDelayMs;
  if (held.timer !== undefined) {
    clearTimeout(held.timer);
    held.timer = undefined;
  }
  if (load) {
    held.loadRequested = true;
    // A failed load is state (`phase: 'error'`), not an unhandled rejection.
    pool.load().catch(() => {});
  }
  let released = false;
  return () => {
    if (released) return;
    released = true;
    held.holders -= 1;
    if (held.holders > 0 || !held.loadRequested || !Number.isFinite(held.unloadDelayMs)) return;
    held.timer = setTimeout(() => {
      held.timer = undefined;
      if (held.holders > 0) return;
      held.loadRequested = false;
      void pool.unload();
    }, held.unloadDelayMs);
  };
}
