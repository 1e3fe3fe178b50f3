import { type ChatJobSpec, type JobResult, type Pool, type SUPERSEDED, type TranslationJobSpec } from '@inkling/scheduler';
import { chunkText } from '@inkling/scheduler/engine';

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
 * job stops the one before, and a job that was stopped or replaced is heard
 * from no more (its late chunks and its result are ignored); one of the same
 * `session` is left to the pool to supersede. Each start takes
 * a new `AbortController`, which is also the job's token: only the job whose
 * controller is the current one may speak. Completion,
 * chat and ghost text hold one; a batch translation holds one per item.
 *
 * @example
 * const job = new StreamedJob();
 * void job.start(pool, { params }, { onText: render, onEnd: finish });
 * job.stop();
 */
export class StreamedJob {
  /** The current job's abort controller: a stop or a start replaces it, silencing the job. */
  #abort: AbortController | undefined;
  /** The current job's session, if it has one. */
  #session: string | undefined;

  /** Whether a job is running (started, and neither ended nor stopped). */
  get running(): boolean {
    return this.#abort !== undefined;
  }

  /** Submits `spec`, stopping the job before. Resolves with the result; never rejects. */
  start(
    pool: Pool,
    spec: Omit<ChatJobSpec, 'signal' | 'onChunk'> | Omit<TranslationJobSpec, 'signal' | 'onChunk'>,
    handlers: StreamedJobHandlers,
  ): Promise<JobResult> {
    // A job of the same session is superseded by the pool as the next is
    // submitted (and counted as superseded); any other is aborted here.
    if (spec.session && spec.session === this.#session) this.#abort = undefined;
    else this.stop();
    const abort = new AbortController();
    this.#abort = abort;
    this.#session = spec.session;
    let text = '';
    const job = pool.submit({
      ...(spec as Omit<ChatJobSpec, 'signal' | 'onChunk'>),
      signal: abort.signal,
      onChunk: (chunk) => {
        const delta = chunkText(chunk);
        if (!delta || abort !== this.#abort) return;
        text += delta;
        handlers.onText(text);
      },
    });
    return job.then((result) => {
      if (abort === this.#abort) {
        this.#abort = undefined;
        handlers.onEnd(result);
      }
      handlers.onFinish?.(result);
      return result;
    });
  }

  /**
   * Stops the current job. Returns whether there was one. `reason` is the
   * abort's reason: `SUPERSEDED` when a newer request of the same session
   * replaces it (a keystroke), so the pool records it as superseded.
   */
  stop(reason?: typeof SUPERSEDED): boolean {
    const abort = this.#abort;
    this.#abort = undefined;
    abort?.abort(reason);
    return !!abort;
  }
}
