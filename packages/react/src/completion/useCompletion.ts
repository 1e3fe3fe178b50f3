import type { ChatCompletionRequest, JobResult } from '@inkling/scheduler';
import { useMemo } from 'react';
import { type CompletionOptions, CompletionController } from './core/completionController.js';
import type { CompletionState } from '../base/core/streamState.js';
import { useController } from '../base/useController.js';

/** Options of `useCompletion`: the controller's, plus error-boundary opt-in. */
export interface UseCompletionOptions extends CompletionOptions {
  /** Throw a job's error to the nearest error boundary instead of returning it. Default `false`. */
  throwOnError?: boolean;
}

/** What `useCompletion` returns. */
export interface UseCompletionResult extends CompletionState {
  /** Starts a job from a prompt or a request, cancelling the one before. Resolves with its result; never rejects. */
  complete(input: string | ChatCompletionRequest): Promise<JobResult>;
  /** Cancels the running job; `completion` keeps what had streamed. */
  stop(): void;
}

/**
 * One streaming completion, named as in the AI SDK: `complete()` it, watch
 * `completion` grow (at most one render per frame), `stop()` it. Unmounting
 * cancels the job.
 *
 * @example
 * const { completion, status, error, complete, stop } = useCompletion();
 * <button onClick={() => complete('Summarise: ' + note)}>Summarise</button>
 * {status === 'streaming' && <button onClick={stop}>Stop</button>}
 * <output>{error ? error.message : completion}</output>
 */
export function useCompletion(options: UseCompletionOptions = {}): UseCompletionResult {
  const [controller, state] = useController(
    'useCompletion',
    options,
    ({ pool, scheduleFrame }, initial) => new CompletionController(pool, initial, scheduleFrame),
  );
  if (options.throwOnError && state.error) throw state.error;
  return useMemo(() => ({ ...state, complete: controller.complete, stop: controller.stop }), [state, controller]);
}
