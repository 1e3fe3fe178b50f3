import type { ChatJobSpec, Pool, JobResult } from '@inkling/scheduler';
import { chunkText } from './chunkText.js';

/** What a `StreamedJob` tells its owner. */
export interface StreamedJobHandlers {
  /** The text so far, after each chunk, while the job is the current one. */
  onText: (text: string) => void;
  /** The result, if the job was still the current one when it ended. */
  onEnd: (result: JobResult) => void;
  /** The result, whatever happened meanwhile. */
  onFinish?: (result: JobResult) => void;
}

/**
 * One streamed job at a time, whose text is shown as it arrives: starting a
 * job aborts the one before, and a job that was stopped or replaced is heard
 * from no more (its late chunks and its result are ignored).
 *
 * @example
 * const job = new StreamedJob();
 * void job.start(pool, { params }, { onText: render, onEnd: finish });
 * job.stop();
 */
export class StreamedJob {
  #current: AbortController | undefined;

  /** Submits `spec`, aborting the job before. Resolves with the result; never rejects. */
  start(pool: Pool, spec: Omit<ChatJobSpec, 'signal' | 'onChunk'>, handlers: StreamedJobHandlers): Promise<JobResult> {
    this.#current?.abort();
    const controller = new AbortController();
    this.#current = controller;
    let text = '';
    const job = pool.submit({
      ...spec,
      signal: controller.signal,
      onChunk: (chunk) => {
        const delta = chunkText(chunk);
        if (!delta || this.#current !== controller) return;
        text += delta;
        handlers.onText(text);
      },
    });
    return job.then((result) => {
      if (this.#current === controller) {
        this.#current = undefined;
        handlers.onEnd(result);
      }
      handlers.onFinish?.(result);
      return result;
    });
  }

  /** Aborts the current job. Returns whether there was one. */
  stop(): boolean {
    const current = this.#current;
    if (!current) return false;
    this.#current = undefined;
    current.abort();
    return true;
  }
}
