import type { EngineInfo, JobInfo, JobRecord, PoolStatus } from '@inkling/scheduler';
import { SCOPE } from './protocol.js';

/** A pool with no engine and no job: what a client shows before the host speaks, or between hosts. */
export function emptyStatus(phase: PoolStatus['phase']): PoolStatus {
  return Object.freeze({
    phase,
    loadProgress: null,
    error: null,
    size: 0,
    maxSize: 0,
    growing: false,
    growthBlocked: null,
    busy: 0,
    running: 0,
    queued: 0,
    queuedByPriority: Object.freeze({ interactive: 0, high: 0, normal: 0, low: 0 }),
    engines: Object.freeze([]),
    jobs: Object.freeze([]),
    recent: Object.freeze([]),
  });
}

const TIMES = ['submittedAt', 'startedAt', 'firstTokenAt', 'finishedAt'] as const;

/**
 * The times of a job or result moved onto this side's clock: a worker's
 * `performance.now()` counts from another origin than the page's.
 */
export function shiftTimes<T extends Partial<Record<(typeof TIMES)[number], number | undefined>>>(times: T, offset: number): Partial<T> {
  if (offset === 0) return {};
  const shifted: Partial<Record<string, number>> = {};
  for (const key of TIMES) if (typeof times[key] === 'number') shifted[key] = (times[key] as number) + offset;
  return shifted as Partial<T>;
}

/**
 * The host's snapshot as one client sees it, times on the client's clock
 * (`clockOffset` is added to each): its own jobs under the ids,
 * sessions and tasks it gave them (the host's scoping taken off); other
 * tabs' jobs as the host names them, `owner` telling whose they are.
 */
export function localView(status: PoolStatus, clientId: string, clockOffset = 0): PoolStatus {
  const prefix = `${clientId}${SCOPE}`;
  const local = (key: string | undefined) => (key?.startsWith(prefix) ? key.slice(prefix.length) : key);
  const job = <T extends JobInfo | JobRecord>(info: T): T => {
    const own =
      info.owner === clientId ? { id: local(info.id) ?? info.id, task: local(info.task) ?? info.task, session: local(info.session) } : {};
    return { ...info, ...own, ...shiftTimes(info, clockOffset) };
  };
  const engine = (info: EngineInfo): EngineInfo => ({ ...info, jobs: info.jobs.map((id) => local(id) ?? id) });
  return { ...status, jobs: status.jobs.map(job), recent: status.recent.map(job), engines: status.engines.map(engine) };
}
