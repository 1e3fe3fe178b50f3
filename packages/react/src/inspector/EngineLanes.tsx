import type { InspectedEngine, InspectedJob, PoolInspection } from './core/inspectPool.js';
import { formatMs, ownerName, withoutOwner } from './core/format.js';
import { laneRows } from './core/laneRows.js';
import { OUTCOME_LABELS } from './core/outcomeLabels.js';

const LEGEND = ['running', 'done', 'preempted', 'superseded', 'cancelled', 'error'] as const;

/** Props of `EngineLanes`. */
export interface EngineLanesProps {
  inspection: PoolInspection;
  /** The time the lanes cover, ending at the latest event. */
  windowMs: number;
  /**
   * Rows to show at least: the pool's most engines, so a row is there before
   * its engine loads and the panel keeps its height as the pool grows. Default `0`.
   */
  slots?: number;
}

function jobTitle(job: InspectedJob): string {
  const parts = [
    withoutOwner(job.id, job.owner),
    withoutOwner(job.task, job.owner),
    ...(job.owner === undefined ? [] : [ownerName(job.owner)]),
    job.priority,
    OUTCOME_LABELS[job.outcome],
    `${job.tokens} tok`,
  ];
  if (job.ttftMs !== null) parts.push(`first token ${formatMs(job.ttftMs)}`);
  return parts.join(' · ');
}

/** Where a job's block begins on the axis: its start, or the window's when it started before. */
const fromOf = (start: number) => (job: InspectedJob) => Math.max(job.startedAt ?? job.endAt, start);

/**
 * One engine's track: a block per job it ran, placed on the time axis; an
 * engine of several lanes gets a row per lane, so jobs that ran side by side
 * show side by side.
 */
function Lane({ jobs, start, range, lanes }: { jobs: readonly InspectedJob[]; start: number; range: number; lanes: number }) {
  if (lanes <= 1) {
    return (
      <div className="inkling-lane">
        <Blocks jobs={jobs} start={start} range={range} />
      </div>
    );
  }
  return (
    <div className="inkling-lane" data-lanes={lanes}>
      {laneRows(jobs, lanes, fromOf(start)).map((row, n) => (
        // oxlint-disable-next-line react/no-array-index-key -- a lane is its place: rows never move
        <div key={n} className="inkling-lane-row">
          <Blocks jobs={row} start={start} range={range} />
        </div>
      ))}
    </div>
  );
}

/** The blocks of `jobs` on one row. */
function Blocks({ jobs, start, range }: { jobs: readonly InspectedJob[]; start: number; range: number }) {
  const from0 = fromOf(start);
  return (
    <>
      {jobs.map((job) => {
        const from = from0(job);
        const left = ((from - start) / range) * 100;
        const width = ((job.endAt - from) / range) * 100;
        const prefill =
          job.firstTokenAt === undefined ? 100 : ((Math.max(job.firstTokenAt, from) - from) / Math.max(job.endAt - from, 1)) * 100;
        return (
          <div
            key={job.id}
            className="inkling-lane-job"
            data-outcome={job.outcome}
            data-priority={job.priority}
            title={jobTitle(job)}
            style={{ left: `${left}%`, width: `${Math.max(width, 0.4)}%` }}
          >
            <div className="inkling-lane-prefill" style={{ width: `${Math.min(100, prefill)}%` }} />
          </div>
        );
      })}
    </>
  );
}

/** A loaded engine's row: its state (and lanes taken), the jobs it runs now, and its lane of `jobs`. */
function EngineRow({
  engine,
  jobs,
  start,
  range,
}: {
  engine: InspectedEngine;
  jobs: readonly InspectedJob[];
  start: number;
  range: number;
}) {
  return (
    <tr data-state={engine.state}>
      <th scope="row">{engine.index + 1}</th>
      <td>
        <span className="inkling-engine-state" data-state={engine.state}>
          {engine.state}
        </span>
        {engine.concurrency > 1 ? (
          <span className="inkling-engine-lanes">
            {Math.min(engine.jobs.length, engine.concurrency)} of {engine.concurrency} lanes, 1 kept for interactive work
          </span>
        ) : null}
      </td>
      <td className="inkling-engine-jobs">
        {engine.jobs.length === 0
          ? '–'
          : engine.jobs.map((job) => (
              <span key={job.id} className="inkling-job-chip" data-priority={job.priority}>
                <code>{withoutOwner(job.id, job.owner)}</code> {withoutOwner(job.task, job.owner)}
                {job.owner === undefined ? null : ` · ${ownerName(job.owner)}`}{' '}
                <span className="inkling-priority" data-priority={job.priority}>
                  {job.priority}
                </span>{' '}
                {job.tokens} tok
              </span>
            ))}
      </td>
      <td className="inkling-lane-cell" aria-hidden="true">
        <Lane jobs={jobs} start={start} range={range} lanes={engine.concurrency} />
      </td>
    </tr>
  );
}

/** The row of an engine the pool may load but has not (yet): it keeps the table's height as the pool grows. */
function UnloadedRow({ index }: { index: number }) {
  return (
    <tr data-state="unloaded">
      <th scope="row">{index + 1}</th>
      <td>
        <span className="inkling-engine-state" data-state="unloaded">
          not loaded
        </span>
      </td>
      <td className="inkling-engine-jobs">–</td>
      <td className="inkling-lane-cell" aria-hidden="true">
        <div className="inkling-lane" />
      </td>
    </tr>
  );
}

/** What the lanes' colours mean: an outcome each, and the lighter prefill. */
function LaneLegend() {
  return (
    <ul className="inkling-lane-legend" aria-hidden="true">
      {LEGEND.map((outcome) => (
        <li key={outcome}>
          <span className="inkling-lane-swatch" data-outcome={outcome} />
          {OUTCOME_LABELS[outcome]}
        </li>
      ))}
      <li>
        <span className="inkling-lane-swatch" data-part="prefill" />
        prefill
      </li>
    </ul>
  );
}

/**
 * A table of the pool's engines: state, the job each runs (id, task,
 * priority, tokens so far) and a lane with every job it ran in the last
 * `windowMs`, coloured by outcome, the prefill part lighter. A preempted
 * block ends where the interactive job after it starts. An engine of several
 * lanes (one copy of the weights decoding several jobs at once) is one row
 * whose track has a line per lane, and says how many of its lanes are taken
 * (the pool keeps an engine's last free lane for interactive work).
 *
 * @example
 * <EngineLanes inspection={inspection} windowMs={10_000} slots={status.maxSize} />
 */
export function EngineLanes({ inspection, windowMs, slots = 0 }: EngineLanesProps) {
  const end = inspection.span.end;
  const start = Math.max(inspection.span.start, end - windowMs);
  const range = Math.max(end - start, 1);
  return (
    <div className="inkling-engines-wrap">
      <table className="inkling-engines">
        <caption>Engines</caption>
        <thead>
          <tr>
            <th scope="col">Engine</th>
            <th scope="col">State</th>
            <th scope="col">Running</th>
            <th scope="col" className="inkling-lane-head">
              {/* Before any job there is no span to speak of: the window the lanes will cover. */}
              Last {formatMs(inspection.jobs.length === 0 ? windowMs : range)}
            </th>
          </tr>
        </thead>
        <tbody>
          {inspection.engines.length === 0 && slots === 0 ? (
            <tr>
              <td colSpan={4} className="inkling-empty">
                No engine loaded
              </td>
            </tr>
          ) : null}
          {inspection.engines.map((engine) => (
            <EngineRow
              key={engine.index}
              engine={engine}
              jobs={inspection.jobs.filter((job) => job.engineIndex === engine.index && job.endAt >= start)}
              start={start}
              range={range}
            />
          ))}
          {Array.from({ length: Math.max(0, slots - inspection.engines.length) }, (_, n) => inspection.engines.length + n).map((index) => (
            <UnloadedRow key={`slot-${index}`} index={index} />
          ))}
        </tbody>
      </table>
      <LaneLegend />
    </div>
  );
}
