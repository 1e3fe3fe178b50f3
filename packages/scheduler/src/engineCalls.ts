import { EngineError, EngineStalledError, type InklingError, asInklingError, isFatalEngineError } from './errors.js';
import { type Job, isStopping } from './job.js';
import type { PoolAction, PoolState, Slot } from './poolState.js';
import { guard } from './reportError.js';
import { type JobCall, runJob } from './runJob.js';
import { StallWatchdog } from './stallWatchdog.js';
import type { ChatCompletionChunk, Engine, PoolTimers } from './types.js';

/** What the engine calls need from the pool that owns them. */
export interface CallsHost {
  readonly state: PoolState;
  dispatch(action: PoolAction): void;
  now(): number;
  /** Resolves a job (once). */
  finish(job: Job, error?: InklingError): void;
  /** The engine in `slot` is beyond use: replace it (`EngineSlots.died`). */
  died(slot: Slot, error: unknown): void;
  /** Hands out free lanes. */
  pump(): void;
}

/**
 * The engine calls behind running jobs: starts each on its lane, passes its
 * chunks on, frees the lane when the engine answers, and stops calls on
 * request. A call asked to stop keeps its lane until the engine answers,
 * whether or not its job has already been settled; one that then stays silent
 * for `stallTimeoutMs` means the engine is wedged, and it is replaced like a
 * crashed one (which frees its lanes).
 */
export class EngineCalls {
  readonly #host: CallsHost;
  readonly #watchdog: StallWatchdog<Job>;

  constructor(host: CallsHost, timers: PoolTimers, stallTimeoutMs: number) {
    this.#host = host;
    this.#watchdog = new StallWatchdog(timers, stallTimeoutMs);
  }

  start(slot: Slot, job: Job): void {
    const host = this.#host;
    host.dispatch({ type: 'start', job, slot, at: host.now() });
    const engine = slot.engine as Engine;
    const call: JobCall = {
      kind: job.kind,
      params: job.spec.params,
      signal: (job.controller as AbortController).signal,
      stopping: () => isStopping(job),
      interrupt: () => interrupt(slot, engine),
      opened: () => host.dispatch({ type: 'open', job }),
      chunk: (chunk) => this.#chunk(job, chunk),
      embedded: (response) => host.dispatch({ type: 'embedded', job, response, at: host.now() }),
    };
    runJob(engine, call).then(
      () => this.#settle(slot, engine, job, undefined),
      (error: unknown) => this.#settle(slot, engine, job, error ?? new Error('The engine failed without saying why.')),
    );
  }

  /** Tells the engine call of `job`, running in `slot`, to stop, and starts watching it. */
  halt(job: Job, slot: Slot): void {
    job.controller?.abort();
    const { engine } = slot;
    if (!engine) return;
    this.#watchdog.watch(job, () => this.#stalled(slot, engine));
    // Only a generation that has started can be interrupted; one that has not
    // is closed unstarted by `runJob` (see there for why).
    if (job.streamOpen) interrupt(slot, engine);
  }

  /** Forgets every call (the pool is unloading: nothing will wait for them). */
  forgetAll(): void {
    this.#watchdog.stopAll();
  }

  #chunk(job: Job, chunk: ChatCompletionChunk): void {
    // A chunk after a stop is progress: the engine is alive, just not done.
    if (isStopping(job)) this.#watchdog.progress(job);
    if (job.state === 'done') return; // settled and draining: nobody reads it
    const show = !isStopping(job);
    this.#host.dispatch({ type: 'chunk', job, chunk, at: this.#host.now() });
    // The chunk goes on verbatim: it is already a complete OpenAI envelope.
    const { onChunk } = job.spec;
    if (show && onChunk) guard(() => onChunk(chunk));
  }

  /** One engine call is over: its lane is free again. */
  #settle(slot: Slot, engine: Engine, job: Job, error: unknown): void {
    const host = this.#host;
    this.#watchdog.stop(job);
    if (slot.draining.has(job)) host.dispatch({ type: 'drained', job, slot });
    const current = slot.engine === engine && host.state.slots.includes(slot);
    if (error !== undefined && isFatalEngineError(error) && current) {
      host.died(slot, error);
    } else if (job.state !== 'done') {
      host.finish(job, error === undefined ? undefined : asInklingError(error, EngineError, 'The engine failed on this job'));
    }
    host.pump();
  }

  /** An engine asked to stop has been silent for `stallTimeoutMs`: it is dead. */
  #stalled(slot: Slot, engine: Engine): void {
    if (slot.engine !== engine || !this.#host.state.slots.includes(slot)) return;
    this.#host.died(
      slot,
      new EngineStalledError(
        `Engine ${slot.index + 1} was asked to stop a job and then sent nothing for ${this.#watchdog.timeoutMs} ms, so Inkling took it for dead and is replacing it. Try again in a moment; if this repeats, raise "stallTimeoutMs".`,
      ),
    );
    this.#host.pump();
  }
}

/** `interruptGenerate` stops everything on an engine, so only a one-lane engine gets it. */
function interrupt(slot: Slot, engine: Engine): void {
  if (slot.concurrency !== 1) return;
  guard(() => engine.interruptGenerate());
}
