import type { PoolStatus } from '@inkling/scheduler';
import type { JobOutcome, PoolInspection } from './core/inspectPool.js';
import { OUTCOME_LABELS } from './core/outcomeLabels.js';

const COUNTED: readonly JobOutcome[] = ['done', 'superseded', 'preempted', 'cancelled', 'error'];

/**
 * The inspector's first line: phase, engines, running and queued jobs, and
 * how recent jobs ended (done, superseded, preempted, cancelled, error).
 *
 * @example
 * <InspectorSummary status={status} inspection={inspection} />
 */
export function InspectorSummary({ status, inspection }: { status: PoolStatus; inspection: PoolInspection }) {
  return (
    <div className="inkling-inspector-summary">
      <dl className="inkling-inspector-stats">
        <div data-phase={status.phase}>
          <dt>Pool</dt>
          <dd>{status.phase}</dd>
        </div>
        <div>
          <dt>Engines</dt>
          <dd>
            {status.size} of {status.maxSize}
            {status.growing ? ' (+1 loading)' : ''}
          </dd>
        </div>
        <div>
          <dt>Running</dt>
          <dd>{status.running}</dd>
        </div>
        <div>
          <dt>Queued</dt>
          <dd>{status.queued}</dd>
        </div>
      </dl>
      <ul className="inkling-inspector-counts" aria-label="Recent outcomes">
        {COUNTED.map((outcome) => (
          <li key={outcome} className="inkling-outcome" data-outcome={outcome} data-count={inspection.counts[outcome]}>
            {inspection.counts[outcome]} {OUTCOME_LABELS[outcome]}
          </li>
        ))}
      </ul>
      {status.error ? (
        // The app says what went wrong in its own place; here the developer's detail waits for a click.
        <details className="inkling-inspector-note" data-kind="error">
          <summary>The pool failed to load: details</summary>
          <p>{status.error.message}</p>
        </details>
      ) : null}
      {status.growthBlocked ? <p className="inkling-inspector-note">Not growing: {status.growthBlocked}</p> : null}
    </div>
  );
}
