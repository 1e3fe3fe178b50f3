import type { InklingError } from './errors.js';
import type { JobResult } from './types.js';

/** What `jobResult` builds a result from: `status` and the times, the rest when known. */
export type JobResultFields = Pick<JobResult, 'id' | 'status' | 'submittedAt' | 'finishedAt'> &
  Partial<Omit<JobResult, 'id' | 'status' | 'submittedAt' | 'finishedAt' | 'error'>> & { readonly error?: InklingError | undefined };

/**
 * The one way a `JobResult` is made, so every pool (the scheduler's, the
 * shared pool's client) ends jobs alike: `text` defaults to `''`; a job
 * `cancelled` or `preempted` reports `finishReason: 'abort'` whatever its
 * stream last said, and no error (an error after a stop is the stop's echo,
 * an aborted fetch); `cancelReason` only on a cancelled job; fields left
 * `undefined` are left out.
 *
 * @example
 * jobResult({ id: 'j1', status: 'cancelled', cancelReason: 'abort', submittedAt: now, finishedAt: now });
 * // { id: 'j1', status: 'cancelled', text: '', finishReason: 'abort', cancelReason: 'abort', submittedAt, finishedAt }
 */
export function jobResult(fields: JobResultFields): JobResult {
  const interrupted = fields.status === 'cancelled' || fields.status === 'preempted';
  const result: Record<string, unknown> = { text: '' };
  for (const key in fields) {
    const value = fields[key as keyof JobResultFields];
    if (value === undefined || (interrupted && key === 'error') || (key === 'cancelReason' && fields.status !== 'cancelled')) continue;
    result[key] = value;
  }
  if (interrupted) result.finishReason = 'abort';
  return result as unknown as JobResult;
}
