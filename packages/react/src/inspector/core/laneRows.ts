import type { InspectedJob } from './inspectPool.js';

/**
 * Jobs of one engine of `lanes` lanes, one row per lane, for a timeline: each
 * job goes, in start order, to the first row free at its start (`from`
 * gives where a block begins on the axis; a live job keeps its row). The pool does not say which lane
 * a job ran on, and needs not: a row is one job at a time, and no more jobs
 * overlap than the engine has lanes, but for the moment a preempted job
 * hands its lane over; such a job shares the row that frees up first.
 *
 * @example
 * laneRows(jobs, 4, (job) => job.startedAt ?? job.endAt); // [[a, d], [b], [c], []]
 */
export function laneRows(jobs: readonly InspectedJob[], lanes: number, from: (job: InspectedJob) => number): InspectedJob[][] {
  const count = Math.max(1, Math.floor(lanes) || 1);
  const rows: InspectedJob[][] = Array.from({ length: count }, () => []);
  const freeAt = Array.from({ length: count }, () => Number.NEGATIVE_INFINITY);
  for (const job of jobs.toSorted((a, b) => from(a) - from(b) || a.endAt - b.endAt)) {
    const start = from(job);
    let row = freeAt.findIndex((end) => end <= start);
    if (row < 0) row = freeAt.indexOf(Math.min(...freeAt));
    rows[row]!.push(job);
    // A live job holds its lane until it ends, whenever the inspection was taken.
    freeAt[row] = Math.max(freeAt[row]!, job.live ? Number.POSITIVE_INFINITY : job.endAt);
  }
  return rows;
}
