import type { LockManagerLike } from '../messageEndpoint.js';

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
  interface Waiter {
    holder: string;
    grant: () => void;
  }
  const held = new Map<string, { holder: string; release: () => void }>();
  const queues = new Map<string, Waiter[]>();
  const next = (name: string) => {
    if (held.has(name)) return;
    const waiter = queues.get(name)?.shift();
    waiter?.grant();
  };
  const as = (holder: string): LockManagerLike => ({
    request(name, options, callback) {
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
              held.delete(name);
              queueMicrotask(() => next(name));
            };
            held.set(name, { holder, release });
            Promise.resolve()
              .then(() => callback({ name }))
              .then(resolve, reject)
              .finally(release);
          },
        };
        const onAbort = () => {
          const queue = queues.get(name) ?? [];
          queues.set(
            name,
            queue.filter((w) => w !== waiter),
          );
          reject(new DOMException('The request was aborted.', 'AbortError'));
        };
        signal?.addEventListener('abort', onAbort, { once: true });
        queues.set(name, [...(queues.get(name) ?? []), waiter]);
        next(name);
      });
    },
  });
  return {
    /** The lock manager of one holder (a tab, a worker). */
    as,
    /** Releases every lock `holder` holds and drops its waiting requests: it died. */
    drop(holder: string): void {
      for (const [name, queue] of queues)
        queues.set(
          name,
          queue.filter((w) => w.holder !== holder),
        );
      for (const [, lock] of [...held]) if (lock.holder === holder) lock.release();
    },
    /** Who holds lock `name` now. */
    holder: (name: string) => held.get(name)?.holder,
  };
}
