import { PRIORITY_ORDER, type PoolStatus, type Priority } from '@inkling/scheduler';
import { SCOPE } from './protocol.js';

/**
 * How much of the shared pool a client is shown. `'own'`: its own jobs in
 * full, every other client's only as counts per band (`others`), and never
 * another client's ids, sessions, tasks, timings or error text. `'all'`:
 * every job of every client with its `owner`, error text included, for an
 * app's own inspector.
 *
 * @example
 * new PoolHost(pool, { view: 'all' }); // every tab is the same app's
 */
export type PoolView = 'own' | 'all';

/**
 * A shared pool's snapshot as a client gets it. Pool-wide counts (`running`,
 * `queued`, `queuedByPriority`, `busy`) count every client's jobs; under the
 * `'own'` view the lists (`jobs`, `recent`, each engine's `jobs`) hold only
 * this client's, and `others` counts the other clients' live jobs (queued or
 * running) per band. `others` is absent under the `'all'` view.
 *
 * @example
 * const { others } = pool.getSnapshot() as SharedPoolStatus;
 * if (others && others.interactive > 0) console.log('another tab is typing');
 */
export interface SharedPoolStatus extends PoolStatus {
  readonly others?: Readonly<Record<Priority, number>>;
}

/**
 * The snapshot cut down to what `clientId` may see under the `'own'` view:
 * its own jobs and records, its own ids on the engines' lanes, and the other
 * clients' live jobs as counts per band.
 */
export function ownView(status: PoolStatus, clientId: string): SharedPoolStatus {
  const prefix = `${clientId}${SCOPE}`;
  const others: Record<Priority, number> = { interactive: 0, high: 0, normal: 0, low: 0 };
  const jobs = status.jobs.filter((job) => {
    if (job.owner === clientId) return true;
    others[job.priority] += 1;
    return false;
  });
  const own = (id: string) => id.startsWith(prefix);
  return {
    ...status,
    jobs,
    recent: status.recent.filter((record) => record.owner === clientId),
    engines: status.engines.map((engine) => (engine.jobs.every(own) ? engine : { ...engine, jobs: engine.jobs.filter(own) })),
    others: Object.fromEntries(PRIORITY_ORDER.map((p) => [p, others[p]])) as Record<Priority, number>,
  };
}
