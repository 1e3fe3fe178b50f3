import type { CompletionUsage, FinishReason, InklingError, JobResult } from '@inkling/scheduler';

/**
 * Where a streamed job is: `queued` until its first token, `streaming` while
 * tokens arrive, then `done`, `cancelled` (stopped, superseded, preempted or
 * unloaded: `completion` keeps what had arrived) or `error`.
 */
export type StreamStatus = 'idle' | 'queued' | 'streaming' | 'done' | 'cancelled' | 'error';

/** The state of one streaming completion. */
export interface CompletionState {
  /** Everything streamed so far (partial while streaming or when cancelled). */
  readonly completion: string;
  readonly status: StreamStatus;
  /** Why `status` is `'error'`; `null` otherwise. */
  readonly error: InklingError | null;
  /** How the last job ended: `'stop'`, `'length'` (hit `max_tokens`), `'abort'`... */
  readonly finishReason: FinishReason | null;
  /** Token counts of the last finished job. */
  readonly usage: CompletionUsage | null;
}

/**
 * The end state a job result maps to.
 *
 * @example
 * finishedState(await pool.submit(spec)).status; // 'done' | 'cancelled' | 'error'
 */
export function finishedState(result: JobResult): Pick<CompletionState, 'status' | 'error' | 'finishReason' | 'usage'> {
  const status = result.status === 'done' ? 'done' : result.status === 'error' ? 'error' : 'cancelled';
  return {
    status,
    error: result.error ?? null,
    finishReason: result.finishReason ?? null,
    usage: (result.usage as CompletionUsage | undefined) ?? null,
  };
}
