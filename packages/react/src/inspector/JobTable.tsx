import type { InspectedJob, PoolInspection } from './core/inspectPool.js';
import { formatMs, formatRate, ownerName, withoutOwner } from './core/format.js';
import { OUTCOME_LABELS } from './core/outcomeLabels.js';

/**
 * Live and recent jobs, newest first: id, task, priority, engine, outcome
 * (superseded and preempted told apart), wait in the queue, time to first
 * token, decode tokens per second, tokens, and, once an engine has said,
 * prompt tokens its cache already held (`usage.cachedTokens`; `–` for jobs
 * it did not say for). Rows carry `data-outcome`.
 *
 * @example
 * <JobTable inspection={inspection} maxJobs={20} />
 */
export function JobTable({ inspection, maxJobs }: { inspection: PoolInspection; maxJobs: number }) {
  const jobs = inspection.jobs.slice(0, maxJobs);
  // A column only engines that know their cache fill: none of them, no column.
  const cached = jobs.some((job) => job.cachedTokens !== undefined);
  return (
    <table className="inkling-jobs" data-cached={cached ? '' : undefined}>
      <caption>Jobs, newest first</caption>
      <thead>
        <tr>
          <th scope="col">Job</th>
          <th scope="col">Task</th>
          <th scope="col">Priority</th>
          <th scope="col">Engine</th>
          <th scope="col">Outcome</th>
          <th scope="col" className="inkling-num">
            Wait
          </th>
          <th scope="col" className="inkling-num">
            <abbr title="Time to first token">TTFT</abbr>
          </th>
          <th scope="col" className="inkling-num">
            Tok/s
          </th>
          <th scope="col" className="inkling-num">
            Tokens
          </th>
          {cached ? (
            <th scope="col" className="inkling-num">
              <abbr title="Prompt tokens the engine's cache already held">Cached</abbr>
            </th>
          ) : null}
        </tr>
      </thead>
      <tbody>
        {jobs.length === 0 ? (
          <tr>
            <td colSpan={cached ? 10 : 9} className="inkling-empty">
              No jobs yet
            </td>
          </tr>
        ) : null}
        {/* Keyed by row, not by job: a new job rewrites the rows' text instead of pushing every row down (a layout shift per job). */}
        {jobs.map((job, row) => (
          // oxlint-disable-next-line react/no-array-index-key -- the row is the identity here, see above
          <JobRow key={row} job={job} cached={cached} />
        ))}
      </tbody>
    </table>
  );
}

/** One job's row; `cached` adds the cell of prompt tokens its engine's cache held. */
function JobRow({ job, cached }: { job: InspectedJob; cached: boolean }) {
  return (
    <tr data-job={job.id} data-outcome={job.outcome} data-priority={job.priority}>
      <td>
        <code title={job.id}>{withoutOwner(job.id, job.owner)}</code>
      </td>
      <td className="inkling-task" title={job.task} data-owner={job.owner}>
        {withoutOwner(job.task, job.owner)}
        {job.owner === undefined ? null : <span className="inkling-owner"> · {ownerName(job.owner)}</span>}
      </td>
      <td>
        <span className="inkling-priority" data-priority={job.priority}>
          {job.priority}
        </span>
        {job.preemptible ? (
          <span className="inkling-preemptible" title="preemptible">
            {' '}
            ✂
          </span>
        ) : null}
      </td>
      <td>{job.engineIndex === undefined ? '–' : job.engineIndex + 1}</td>
      <td>
        <span className="inkling-outcome" data-outcome={job.outcome} title={job.error}>
          {OUTCOME_LABELS[job.outcome]}
        </span>
        {job.outcome === 'cancelled' && job.cancelReason && job.cancelReason !== 'cancel' ? (
          <span className="inkling-reason"> by {job.cancelReason}</span>
        ) : null}
      </td>
      <td className="inkling-num">{formatMs(job.waitMs)}</td>
      <td className="inkling-num">{formatMs(job.ttftMs)}</td>
      <td className="inkling-num">{formatRate(job.tokensPerSecond)}</td>
      <td className="inkling-num">{job.tokens}</td>
      {cached ? (
        <td className="inkling-num" data-cached={job.cachedTokens}>
          {job.cachedTokens ?? '–'}
        </td>
      ) : null}
    </tr>
  );
}
