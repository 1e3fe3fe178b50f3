import type { JobOutcome } from '../core/inspectPool.js';

/**
 * Each job outcome in words, as the inspector shows it.
 *
 * @example
 * OUTCOME_LABELS.superseded; // 'superseded'
 */
export const OUTCOME_LABELS: Readonly<Record<JobOutcome, string>> = {
  queued: 'queued',
  running: 'running',
  cancelling: 'cancelling',
  done: 'done',
  preempted: 'preempted',
  superseded: 'superseded',
  cancelled: 'cancelled',
  error: 'error',
};
