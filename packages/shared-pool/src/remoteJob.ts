import {
  type CancelReason,
  type ChatCompletionChunk,
  type InklingError,
  InvalidJobError,
  type JobResult,
  type JobSpec,
} from '@inkling/scheduler';
import { isAbortSignal, jobResult } from '@inkling/scheduler/engine';
import type { WireSpec } from './protocol.js';

/** A job a client sent to the host and has not had answered. */
export interface RemoteJob {
  /** Its `submit` call's number: never reused by this client, so a late answer to a cancelled job finds nothing. */
  readonly rid: number;
  readonly id: string;
  readonly session: string | undefined;
  readonly onChunk: ((chunk: ChatCompletionChunk) => void) | undefined;
  readonly submittedAt: number;
  /** Content streamed so far: kept when the host is lost. */
  text: string;
  /** Chunks received; a job with none is resubmitted to a new host for you. */
  chunks: number;
  /** Unhooks its signal's abort listener, when it has one. */
  detach?: () => void;
  readonly resolve: (result: JobResult) => void;
}

/** The result a client gives a job itself: cancelled here, or its host lost. */
export function localResult(
  job: RemoteJob,
  finishedAt: number,
  ending: { cancelReason: CancelReason } | { error: InklingError },
): JobResult {
  const base = { id: job.id, text: job.text, submittedAt: job.submittedAt, finishedAt };
  if ('error' in ending) return jobResult({ ...base, status: 'error', error: ending.error });
  return jobResult({ ...base, status: 'cancelled', cancelReason: ending.cancelReason });
}

/** A job refused before it was sent: it never ran. */
export function refused(id: string, now: number, message: string): Promise<JobResult> {
  return Promise.resolve(jobResult({ id, status: 'error', submittedAt: now, finishedAt: now, error: new InvalidJobError(message) }));
}

/** A job whose signal was aborted before it was submitted. */
export function abortedAtOnce(id: string, now: number, cancelReason: CancelReason = 'abort'): JobResult {
  return jobResult({ id, status: 'cancelled', cancelReason, submittedAt: now, finishedAt: now });
}

/**
 * The spec as it crosses (functions and signal off, `stream` on when there
 * is an `onChunk`), or why it cannot cross. A `signal` or `onChunk` of the
 * wrong type goes on as text, for the host's pool to refuse in its own words.
 */
export function wireSpec(spec: JobSpec, id: string): WireSpec | string {
  const { signal, onChunk, owner: _owner, ...rest } = spec;
  const wire: Record<string, unknown> = { ...rest, id, stream: typeof onChunk === 'function' };
  if (onChunk !== undefined && typeof onChunk !== 'function') wire.onChunk = String(onChunk);
  if (signal !== undefined && !isAbortSignal(signal)) wire.signal = String(signal);
  const problem = uncloneable(wire);
  return problem
    ? `The job spec cannot be sent to the shared pool (${problem}); params must be plain data.`
    : (wire as unknown as WireSpec);
}

/** Why `value` cannot be structured-cloned, or undefined when it can (or there is no way to tell). */
function uncloneable(value: unknown): string | undefined {
  if (typeof structuredClone !== 'function') return undefined;
  try {
    structuredClone(value);
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}
