import { type Job, isStopping } from './job.js';
import type { PoolState, Slot } from './poolState.js';
import { guard } from './reportError.js';
import { type JobCall, runJob } from './runJob.js';
import type { StallWatchdog } from './stallWatchdog.js';
import type { ChatCompletionChunk, Engine } from './types.js';

/**
 * The engine calls behind running jobs: starts each on its lane and records
 * what it streams. It calls nobody back: `start` returns the engine call, and
 * the pool, which settles it, decides what its end means (the lane is free,
 * the job is done, the engine died). A chunk from a call asked to stop is
 * progress, so it re-arms the pool's stall watchdog.
 */
export class EngineCalls {
  readonly #state: PoolState;
  readonly #now: () => number;
  readonly #watchdog: StallWatchdog<Job>;

  constructor(state: PoolState, now: () => number, watchdog: StallWatchdog<Job>) {
    this.#state = state;
    this.#now = now;
    this.#watchdog = watchdog;
  }

  /** Starts `job` on a lane of `slot`; resolves (or rejects with the engine's error) once the lane is free. */
  start(slot: Slot, job: Job): Promise<void> {
    const state = this.#state;
    state.dispatch({ type: 'start', job, slot, at: this.#now() });
    const engine = slot.engine as Engine;
    const call: JobCall = {
      kind: job.kind,
      params: job.spec.params,
      signal: (job.controller as AbortController).signal,
      stopping: () => isStopping(job),
      interrupt: () => interrupt(slot, engine),
      opened: () => state.dispatch({ type: 'open', job }),
      chunk: (chunk) => this.#chunk(job, chunk),
      embedded: (response) => state.dispatch({ type: 'embedded', job, response, at: this.#now() }),
    };
    return runJob(engine, call);
  }

  #chunk(job: Job, chunk: ChatCompletionChunk): void {
    // A chunk after a stop is progress: the engine is alive, just not done.
    if (isStopping(job)) this.#watchdog.progress(job);
    if (job.state === 'done') return; // settled and draining: nobody reads it
    const show = !isStopping(job);
    this.#state.dispatch({ type: 'chunk', job, chunk, at: this.#now() });
    // The chunk goes on verbatim: it is already a complete OpenAI envelope.
    const { onChunk } = job.spec;
    if (show && onChunk) guard(() => onChunk(chunk));
  }
}

/** `interruptGenerate` stops everything on an engine, so only a one-lane engine gets it. */
export function interrupt(slot: Slot, engine: Engine): void {
  if (slot.concurrency !== 1) return;
  guard(() => engine.interruptGenerate());
}
