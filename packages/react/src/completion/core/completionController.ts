import type { ChatCompletionRequest, Pool, JobResult, Priority } from '@inkling/scheduler';
import { toRequest } from '../../base/core/toRequest.js';
import type { FrameScheduler } from '../../base/core/frameScheduler.js';
import { Store } from '../../base/core/store.js';
import { StreamedJob } from '../../base/core/streamedJob.js';
import { type CompletionState, finishedState } from '../../base/core/streamState.js';

/** Options of a `CompletionController` (and of `useCompletion`). */
export interface CompletionOptions {
  /** Scheduler band. Default `'high'` (a person asked and is watching). */
  priority?: Priority;
  /** Pool session: a later job of the same session anywhere in the app cancels this one. Default: none. */
  session?: string;
  /** Pool task: the unit that owns an engine. Default: the session, else each job its own. */
  task?: string;
  /** Called with each finished job's result, whatever its status. Default: none. */
  onFinish?: (result: JobResult) => void;
}

type Action = { type: 'submit' } | { type: 'text'; text: string } | { type: 'finish'; result: JobResult } | { type: 'stop' };

const IDLE: CompletionState = { completion: '', status: 'idle', error: null, finishReason: null, usage: null };

function reduce(state: CompletionState, action: Action): CompletionState {
  switch (action.type) {
    case 'submit':
      return { ...IDLE, status: 'queued' };
    case 'text':
      return { ...state, completion: action.text, status: 'streaming' };
    case 'finish':
      return { ...state, completion: action.result.text, ...finishedState(action.result) };
    case 'stop':
      return { ...state, status: 'cancelled', finishReason: 'abort' };
  }
}

/**
 * One streaming completion at a time over an `Pool`: `complete()`
 * starts a job (cancelling the one before), `stop()` ends it. An external
 * store: streamed text reaches listeners at most once per frame.
 *
 * @example
 * const completion = new CompletionController(pool, { priority: 'high' });
 * completion.subscribe(() => render(completion.getSnapshot().completion));
 * await completion.complete('Write a haiku about autumn.');
 */
export class CompletionController extends Store<CompletionState> {
  readonly #pool: Pool;
  #options: CompletionOptions;
  /** The job whose output is shown; a finished or replaced one is ignored. */
  readonly #job = new StreamedJob();

  constructor(pool: Pool, options: CompletionOptions = {}, scheduleFrame?: FrameScheduler) {
    super(IDLE, scheduleFrame);
    this.#pool = pool;
    this.#options = options;
  }

  /** Replaces the options; the running job keeps the ones it started with. */
  setOptions(options: CompletionOptions): void {
    this.#options = options;
  }

  /**
   * Starts a job (a prompt string or a full request), cancelling the previous
   * one at once. Resolves with the job's result; never rejects. Bound.
   */
  readonly complete = (input: string | ChatCompletionRequest): Promise<JobResult> => {
    const { priority = 'high', session, task } = this.#options;
    this.#dispatch({ type: 'submit' });
    return this.#job.start(
      this.#pool,
      { params: toRequest(input), priority, session, task },
      {
        onText: (text) => this.#dispatch({ type: 'text', text }),
        onEnd: (result) => this.#dispatch({ type: 'finish', result }),
        // The latest callback, not the one of when the job started.
        onFinish: (result) => this.#options.onFinish?.(result),
      },
    );
  };

  /** Cancels the running job; `completion` keeps what had streamed. Bound. */
  readonly stop = (): void => {
    if (this.#job.stop()) this.#dispatch({ type: 'stop' });
  };

  /** The last listener left (after StrictMode's rehearsal, for good): stop. */
  protected override onStop(): void {
    this.dispose();
  }

  /** Cancels the running job and any pending notification. */
  dispose(): void {
    this.stop();
    this.cancelPendingFrame();
  }

  #dispatch(action: Action): void {
    this.commit(reduce(this.state, action), action.type === 'text' ? 'frame' : 'now');
  }
}
