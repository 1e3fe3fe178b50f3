import type { CancelReason, ChatCompletionChunk, InklingError, JobResult } from '@inkling/scheduler';
import type { WireSpec } from './protocol.js';

/** A job a client sent to the host and has not had answered. */
export interface RemoteJob {
  readonly id: string;
  readonly session: string | undefined;
  readonly wire: WireSpec;
  readonly onChunk: ((chunk: ChatCompletionChunk) => void) | undefined;
  readonly submittedAt: number;
  /** Content streamed so far: kept when the host is lost. */
  text: string;
  /** Chunks received; a job with none is resubmitted to a new host for you. */
  chunks: number;
  detach: () => void;
  readonly resolve: (result: JobResult) => void;
}

/** The result a client gives a job itself: cancelled here, or its host lost. */
export function localResult(
  job: RemoteJob,
  finishedAt: number,
  ending: { cancelReason: CancelReason } | { error: InklingError },
): JobResult {
  const base = { id: job.id, text: job.text, submittedAt: job.submittedAt, finishedAt, preempted: false };
  if ('error' in ending) return { ...base, status: 'error', cancelled: false, error: ending.error };
  return { ...base, status: 'cancelled', cancelled: true, cancelReason: ending.cancelReason, finishReason: 'abort' };
}

/** The content of a chunk's first choice, or `''`. */
export function chunkContent(chunk: ChatCompletionChunk): string {
  const content = chunk?.choices?.[0]?.delta?.content;
  return typeof content === 'string' ? content : '';
}
