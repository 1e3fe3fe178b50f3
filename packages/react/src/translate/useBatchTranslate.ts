import { useMemo } from 'react';
import { type BatchTranslateOptions, type BatchTranslateState, BatchTranslateController } from './core/batchTranslateController.js';
import { queryClientCache } from '../base/core/cacheKeys.js';
import { useController } from '../base/useController.js';

/** Options of `useBatchTranslate`. */
export interface UseBatchTranslateOptions extends BatchTranslateOptions {
  /** Throw the first item's error to the nearest error boundary once the batch ends in `'error'`. Default `false`. */
  throwOnError?: boolean;
}

/** What `useBatchTranslate` returns. */
export interface UseBatchTranslateResult extends BatchTranslateState {
  /** Submits every item not done and not already queued (what `enabled` does by itself). */
  start(): void;
  /** Cancels every item not done yet. */
  cancel(): void;
  /** Submits the items that failed or were cancelled. */
  retry(): void;
}

/**
 * Translates a list of strings as one pool task (`task`), normal priority,
 * preemptible: ghost text cuts in between tokens, and a preempted item is
 * resubmitted at once. Each finished item is cached in TanStack Query under
 * model, languages and text, so a repeated string costs no engine call and a
 * remount shows cached results at once. Unmounting cancels what is left.
 *
 * @example
 * const { results, progress, status, cancel } = useBatchTranslate({ task: 'page', items: paragraphs, to: 'fr' });
 * <progress value={progress.done} max={progress.total} />
 * {results.map((r, i) => <p key={i} data-status={r.status}>{r.status === 'done' ? r.text : r.source}</p>)}
 */
export function useBatchTranslate(options: UseBatchTranslateOptions): UseBatchTranslateResult {
  const [batch, state] = useController(
    'useBatchTranslate',
    options,
    ({ pool, scheduleFrame, queryClient, modelId }, initial) =>
      new BatchTranslateController(pool, initial, { cache: queryClientCache(queryClient), modelId, scheduleFrame }),
  );
  if (options.throwOnError && state.status === 'error') {
    const failed = state.results.find((r) => r.error);
    if (failed?.error) throw failed.error;
  }
  return useMemo(() => ({ ...state, start: batch.start, cancel: batch.cancel, retry: batch.retry }), [state, batch]);
}
