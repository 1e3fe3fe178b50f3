/**
 * A job's stream as its page reads it: one chunk per pull, and a pull is
 * what lets the job step (as `hostWebLLM` does for WebLLM's own path), so a
 * cancel from the chunk callback costs no token.
 */

import type { ChatCompletionChunk } from '@inkling/scheduler';
import type { LaneJob } from './laneJob.js';

/** One job's stream from the lanes: WebLLM's chunk shapes, pulled one at a time. */
export interface LaneStream extends AsyncIterator<ChatCompletionChunk> {
  /** Ends the generation before its next step, with a finish chunk (`abort`) and the usage. */
  interrupt(): void;
  /** Leaves the stream: the lane is free at once, nothing more is sent. */
  return(): Promise<IteratorResult<ChatCompletionChunk>>;
}

/** What a stream asks of the lanes' loop. */
export interface StreamLoop {
  /** Runs the loop (or has it look again) because a job's state changed. */
  wake(): void;
  /** Takes the job off the lanes: out of the queue, its lane free. */
  close(job: LaneJob): void;
}

/**
 * The stream of `job` on `loop`.
 *
 * @example
 * const stream = laneStream(job, loop);
 * const first = await stream.next();
 */
export function laneStream(job: LaneJob, loop: StreamLoop): LaneStream {
  return {
    next: () => pull(job, loop),
    interrupt: () => {
      if (job.ended || job.closed) return;
      job.interrupted = true;
      loop.wake();
    },
    return: () => {
      loop.close(job);
      return Promise.resolve({ done: true, value: undefined });
    },
  };
}

/** The job's next chunk: one already queued, its end, or a pull the loop answers. */
function pull(job: LaneJob, loop: StreamLoop): Promise<IteratorResult<ChatCompletionChunk>> {
  const chunk = job.queue.shift();
  if (chunk) return Promise.resolve({ done: false, value: chunk });
  if (job.error !== undefined) return Promise.reject(job.error);
  if (job.ended || job.closed) return Promise.resolve({ done: true, value: undefined });
  return new Promise((resolve, reject) => {
    job.waiter = resolve;
    job.failer = reject;
    loop.wake();
  });
}
