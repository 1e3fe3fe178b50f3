import { PRIORITY_ORDER } from '@inkling/scheduler';
import type { PoolInspection } from './core/inspectPool.js';
import { ownerName, withoutOwner } from './core/format.js';

/** How many queued jobs each band lists by name before `+N more`. */
const SHOWN = 4;

/**
 * The queue, one band per priority (interactive, high, normal, low): how
 * many wait in each and the first few by id and task, in the order they
 * will start.
 *
 * @example
 * <QueueBands inspection={inspection} />
 */
export function QueueBands({ inspection }: { inspection: PoolInspection }) {
  return (
    <div className="inkling-queues" role="group" aria-label="Queue">
      <span className="inkling-queues-title">Queue</span>
      <ul>
        {PRIORITY_ORDER.map((priority) => {
          const jobs = inspection.queues[priority];
          return (
            <li key={priority} data-priority={priority} data-count={jobs.length}>
              <span className="inkling-priority" data-priority={priority}>
                {priority}
              </span>
              <span className="inkling-queue-count">{jobs.length}</span>
              {jobs.slice(0, SHOWN).map((job) => (
                <span
                  key={job.id}
                  className="inkling-job-chip"
                  title={job.owner === undefined ? job.task : `${job.task} (${ownerName(job.owner)})`}
                >
                  <code>{withoutOwner(job.id, job.owner)}</code> {withoutOwner(job.task, job.owner)}
                </span>
              ))}
              {jobs.length > SHOWN ? <span className="inkling-queue-more">+{jobs.length - SHOWN} more</span> : null}
            </li>
          );
        })}
      </ul>
    </div>
  );
}
