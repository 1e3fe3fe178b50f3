import type { LockManagerLike } from '../messageEndpoint.js';

interface Waiter {
  readonly holder: string;
  readonly grant: () => void;
}

/** The locks of one `memoryLocks()`: who holds each, and who waits for it, in request order. */
interface LockTable {
  readonly held: Map<string, { readonly holder: string; readonly release: () => void }>;
  readonly queues: Map<string, Waiter[]>;
}

/**
 * Web Locks in memory, for tests where `navigator.locks` is missing (Node
 * 20): exclusive locks granted in request order, `signal` honoured. `drop`
 * lets go of every lock one holder took, as a closed tab or killed worker
 * would.
 *
 * @example
 * const locks = memoryLocks();
 * const host = new PoolHost(pool, { locks: locks.as('host') });
 * locks.drop('host'); // the host "dies": clients watching its lock hear of it
 */
export function memoryLocks() {
  const table: LockTable = { held: new Map(), queues: new Map() };
  return {
    /** The lock manager of one holder (a tab, a worker). */
    as: (holder: string): LockManagerLike => ({
      request: (name, options, callback) => request(table, holder, name, options, callback),
    }),
    /** Releases every lock `holder` holds and drops its waiting requests: it died. */
    drop(holder: string): void {
      for (const [name, queue] of table.queues)
        table.queues.set(
          name,
          queue.filter((w) => w.holder !== holder),
        );
      for (const [, lock] of [...table.held]) if (lock.holder === holder) lock.release();
    },
    /** Who holds lock `name` now. */
    holder: (name: string) => table.held.get(name)?.holder,
  };
}

/** Grants lock `name` to the first waiter, unless someone holds it. */
function next(table: LockTable, name: string): void {
  if (table.held.has(name)) return;
  const waiter = table.queues.get(name)?.shift();
  waiter?.grant();
}

/** `LockManager.request` for `holder`: waits its turn, runs `callback` holding the lock, lets go when it settles. */
function request<T>(
  table: LockTable,
  holder: string,
  name: string,
  options: { signal?: AbortSignal },
  callback: (lock: unknown) => Promise<T> | T,
): Promise<T> {
  return new Promise((resolve, reject) => {
    const { signal } = options;
    if (signal?.aborted) return reject(new DOMException('The request was aborted.', 'AbortError'));
    const waiter: Waiter = {
      holder,
      grant: () => {
        signal?.removeEventListener('abort', onAbort);
        let released = false;
        const release = () => {
          if (released) return;
          released = true;
          table.held.delete(name);
          queueMicrotask(() => next(table, name));
        };
        table.held.set(name, { holder, release });
        Promise.resolve()
          .then(() => callback({ name }))
          .then(resolve, reject)
          .finally(release);
      },
    };
    const onAbort = () => {
      const queue = table.queues.get(name) ?? [];
      table.queues.set(
        name,
        queue.filter((w) => w !== waiter),
      );
      reject(new DOMException('The request was aborted.', 'AbortError'));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    table.queues.set(name, [...(table.queues.get(name) ?? []), waiter]);
    next(table, name);
  });
}
