import { type CancelReason, PRIORITY_ORDER, type JobInfo, type JobRecord, type PoolStatus, type Priority } from '@inkling/scheduler';

/**
 * How a job ended or where it is: the pool's `JobStatus` with cancellations
 * told apart by who cancelled (`superseded` by a newer job of its session,
 * `cancelled` by a caller, an abort signal or `unload()`).
 */
export type JobOutcome = 'queued' | 'running' | 'cancelling' | 'done' | 'preempted' | 'superseded' | 'cancelled' | 'error';

/** A job, live or finished, with the figures a person looks at. */
export interface InspectedJob {
  readonly id: string;
  readonly task: string;
  readonly session: string | undefined;
  readonly priority: Priority;
  readonly preemptible: boolean;
  readonly engineIndex: number | undefined;
  readonly outcome: JobOutcome;
  /** Whether it is still in the pool. */
  readonly live: boolean;
  readonly tokens: number;
  readonly submittedAt: number;
  readonly startedAt: number | undefined;
  readonly firstTokenAt: number | undefined;
  /** When it finished; for a live job, the `now` it was inspected at. */
  readonly endAt: number;
  /** Queued time, submit to start (so far, if it has not started). */
  readonly waitMs: number;
  /** Submit to first token; `null` before any token. */
  readonly ttftMs: number | null;
  /** Decode speed after the first token; `null` with fewer than three tokens (too few to say). */
  readonly tokensPerSecond: number | null;
  /** Who cancelled it (`cancel`, `abort`, `supersede`, `unload`), for `cancelled` and `superseded`. */
  readonly cancelReason: CancelReason | undefined;
  /** The error message, for `error`. */
  readonly error: string | undefined;
  /** Prompt tokens the engine's cache already held (`usage.cachedTokens`), for a finished job whose engine said. */
  readonly cachedTokens: number | undefined;
  /** Who submitted it (a shared pool's tab, `JobInfo.owner`); absent in a pool of one page. */
  readonly owner?: string;
}

/** One engine and the jobs on it. */
export interface InspectedEngine {
  readonly index: number;
  readonly state: 'idle' | 'busy' | 'restarting';
  /** How many jobs it runs at once (its lanes). */
  readonly concurrency: number;
  readonly jobs: readonly InspectedJob[];
}

/** What `inspectPool` makes of a snapshot. */
export interface PoolInspection {
  readonly engines: readonly InspectedEngine[];
  /** Queued jobs per priority band, in the order they will start. */
  readonly queues: Readonly<Record<Priority, readonly InspectedJob[]>>;
  /** Live and recent jobs, newest first. */
  readonly jobs: readonly InspectedJob[];
  /** Recent jobs per outcome. */
  readonly counts: Readonly<Record<JobOutcome, number>>;
  /** The time span the jobs cover: from the first submit to `now` or the last finish. */
  readonly span: { readonly start: number; readonly end: number };
}

function outcomeOf(job: JobInfo | JobRecord): JobOutcome {
  if ('state' in job) return job.state;
  if (job.status === 'cancelled') return job.cancelReason === 'supersede' ? 'superseded' : 'cancelled';
  return job.status;
}

function inspectJob(job: JobInfo | JobRecord, now: number): InspectedJob {
  const live = 'state' in job;
  // `now` may be a tick behind the snapshot: never end before the last event.
  const endAt = live ? Math.max(now, job.submittedAt, job.startedAt ?? 0, job.firstTokenAt ?? 0) : job.finishedAt;
  const decodeMs = job.firstTokenAt === undefined ? 0 : endAt - job.firstTokenAt;
  return {
    id: job.id,
    task: job.task,
    session: job.session,
    priority: job.priority,
    preemptible: job.preemptible,
    engineIndex: job.engineIndex,
    outcome: outcomeOf(job),
    live,
    tokens: job.tokens,
    submittedAt: job.submittedAt,
    startedAt: job.startedAt,
    firstTokenAt: job.firstTokenAt,
    endAt,
    waitMs: Math.max(0, (job.startedAt ?? endAt) - job.submittedAt),
    ttftMs: job.firstTokenAt === undefined ? null : job.firstTokenAt - job.submittedAt,
    tokensPerSecond: job.tokens > 2 && decodeMs > 0 ? ((job.tokens - 1) * 1000) / decodeMs : null,
    cancelReason: live ? undefined : job.cancelReason,
    error: live ? undefined : job.error,
    cachedTokens: 'cachedTokens' in job ? job.cachedTokens : undefined,
    ...(job.owner !== undefined && { owner: job.owner }),
  };
}

const NO_COUNTS: Record<JobOutcome, number> = {
  queued: 0,
  running: 0,
  cancelling: 0,
  done: 0,
  preempted: 0,
  superseded: 0,
  cancelled: 0,
  error: 0,
};

/** The pool numbers jobs `job-1`, `job-2`, ...; ids of your own sort as submitted. */
function sequenceOf(job: InspectedJob): number {
  const number = /^job-(\d+)$/.exec(job.id)?.[1];
  return number === undefined ? -1 : Number(number);
}

/**
 * Turns a pool snapshot into what an inspector shows: each engine with the
 * jobs running on it, queues per priority, and live and recent jobs newest
 * first with their outcome (supersessions and preemptions told apart), wait,
 * time to first token and tokens per second. `now` is on the pool's clock
 * (`performance.now()` unless the pool was given another).
 *
 * @example
 * const view = inspectPool(pool.getSnapshot(), performance.now());
 * view.counts.preempted; // jobs cut short for interactive work
 */
export function inspectPool(status: PoolStatus, now: number): PoolInspection {
  const live = status.jobs.map((job) => inspectJob(job, now));
  const recent = status.recent.map((job) => inspectJob(job, now));
  const byId = new Map(live.map((job) => [job.id, job]));
  const engines = status.engines.map((engine) => ({
    index: engine.index,
    state: engine.state,
    concurrency: engine.concurrency,
    jobs: engine.jobs.flatMap((id) => byId.get(id) ?? []),
  }));
  const queues = Object.fromEntries(PRIORITY_ORDER.map((p) => [p, [] as InspectedJob[]])) as Record<Priority, InspectedJob[]>;
  for (const job of live) if (job.outcome === 'queued') queues[job.priority].push(job);
  const counts = { ...NO_COUNTS };
  for (const job of recent) counts[job.outcome] += 1;
  // Jobs submitted in the same millisecond (a batch) are told apart by the pool's job number.
  const jobs = [...live, ...recent].toSorted((a, b) => b.submittedAt - a.submittedAt || sequenceOf(b) - sequenceOf(a));
  let start = Number.POSITIVE_INFINITY;
  let end = Number.NEGATIVE_INFINITY;
  for (const job of jobs) {
    start = Math.min(start, job.submittedAt);
    end = Math.max(end, job.endAt);
  }
  return { engines, queues, jobs, counts, span: jobs.length ? { start, end } : { start: now, end: now } };
}
