import type { GhostFigures } from '../ghost/core/ghostFigures.js';
import { EngineLanes } from './EngineLanes.js';
import { GhostFiguresTable } from './GhostFiguresTable.js';
import { InspectorSummary } from './InspectorSummary.js';
import { JobTable } from './JobTable.js';
import { QueueBands } from './QueueBands.js';
import { type UsePoolInspectorOptions, usePoolInspector } from './usePoolInspector.js';

/** Props of `PoolInspector`. */
export interface PoolInspectorProps extends UsePoolInspectorOptions {
  /** The heading. Default `'Engine pool'`. */
  title?: string;
  /** The time the engine lanes cover. Default `10_000` ms. */
  windowMs?: number;
  /** Rows of the job table. Default `20`. */
  maxJobs?: number;
  /** Class of the wrapper. */
  className?: string;
  /**
   * Ghost text's figures to show under the jobs (acceptance, keystroke →
   * first glyph, share without an engine call, per model and prompt
   * builder): the `GhostFigures` the app hands its editors' `ghostEvents`.
   * Default: none, no table.
   *
   * @example
   * <GhostTextarea aria-label="Note" events={ghostEvents(figures.record)} />
   * <PoolInspector ghostFigures={figures} />
   */
  ghostFigures?: GhostFigures;
}

/**
 * The pool live, as a devtools panel: a summary (phase, engines, running,
 * queued, and how recent jobs ended), each engine with the job it runs and a
 * lane of the jobs it ran, the queue per priority, and a table of jobs
 * newest first with outcome (supersessions, preemptions, cancels, errors),
 * time to first token and tokens per second. Outcomes are on `data-outcome`
 * for colour. Where jobs carry an owner (a shared pool's tab), a note says
 * the pool is shared and each job names its tab. Given `ghostFigures`, a
 * table under the jobs says how ghost text did. The panel is a named region that takes the focus, so arrow
 * keys scroll it where its tables are wider than it. Needs a `<PoolProvider>`.
 *
 * @example
 * <PoolProvider pool={pool}>
 *   <App />
 *   <PoolInspector />
 * </PoolProvider>
 */
export function PoolInspector({
  title = 'Engine pool',
  windowMs = 10_000,
  maxJobs = 20,
  className,
  ghostFigures,
  ...options
}: PoolInspectorProps) {
  const { status, inspection } = usePoolInspector(options);
  // A shared pool names every job's tab (`owner`); a pool of one page names none.
  const shared = [...inspection.jobs, ...Object.values(inspection.queues).flat()].some((job) => job.owner !== undefined);
  return (
    <section
      className={className ? `inkling-inspector ${className}` : 'inkling-inspector'}
      aria-label={title}
      // Focusable, so the keyboard can scroll the tables when they are wider than the panel.
      tabIndex={0}
      data-phase={status.phase}
      data-running={status.running}
      data-queued={status.queued}
    >
      <div className="inkling-inspector-title">{title}</div>
      {shared ? (
        <p className="inkling-inspector-note" data-kind="shared">
          Shared pool: every tab of this site runs its jobs here; each job names its tab.
        </p>
      ) : null}
      <InspectorSummary status={status} inspection={inspection} />
      <EngineLanes inspection={inspection} windowMs={windowMs} slots={status.maxSize} />
      <QueueBands inspection={inspection} />
      <JobTable inspection={inspection} maxJobs={maxJobs} />
      {ghostFigures ? <GhostFiguresTable figures={ghostFigures} /> : null}
    </section>
  );
}
