import { EngineStalledError } from './errors.js';
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

  /**
   * Tells the engine call of `job`, running in `slot`, to stop. Returns the
   * engine to watch until it answers (none when the slot has lost its engine).
   */
  halt(job: Job, slot: Slot): Engine | undefined {
    job.controller?.abort();
    const { engine } = slot;
    // Only a generation that has started can be interrupted; one that has not
    // is closed unstarted by `runJob` (see there for why).
    if (engine && job.streamOpen) interrupt(slot, engine);
    return engine;
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

/** Why an engine asked to stop and then silent for `timeoutMs` is replaced. */
export function stalledError(slot: Slot, timeoutMs: number): EngineStalledError {
  return new EngineStalledError(
    `Engine ${slot.index + 1} sent nothing for ${timeoutMs} ms after being asked to stop, so it is being replaced. If this repeats, raise "stallTimeoutMs".`,
  );
}

/** `interruptGenerate` stops everything on an engine, so only a one-lane engine gets it. */
function interrupt(slot: Slot, engine: Engine): void {
  if (slot.concurrency !== 1) return;
  guard(() => engine.interruptGenerate());
}
