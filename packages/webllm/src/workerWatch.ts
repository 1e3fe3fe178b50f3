import { WorkerCrashedError } from './errors.js';
import type { WorkerLike } from './types.js';

/**
 * Watches an engine's worker for death: a request to a dead worker would
 * wait for ever. `onDeath` hears of it once (the client fails what is
 * waiting), and `death` says why from then on.
 *
 * @example
 * const watch = new WorkerWatch(worker, (death) => failEverything(death));
 * if (watch.death) throw watch.death;
 */
export class WorkerWatch {
  #death: WorkerCrashedError | undefined;
  readonly #onDeath: ((death: WorkerCrashedError) => void) | undefined;

  constructor(worker: WorkerLike, onDeath?: (death: WorkerCrashedError) => void) {
    this.#onDeath = onDeath;
    worker.addEventListener?.('error', (event) => {
      const message = (event as { message?: unknown }).message;
      const detail = typeof message === 'string' && message ? message : 'an uncaught error';
      this.kill(new WorkerCrashedError(`The engine's worker died (${detail}). Inkling is replacing it; try again in a moment.`, { cause: event }));
    });
    worker.addEventListener?.('messageerror', (event) => {
      this.kill(new WorkerCrashedError("A message from the engine's worker could not be read. Inkling is replacing the engine.", { cause: event }));
    });
  }

  /** Why the worker died, once it has. */
  get death(): WorkerCrashedError | undefined {
    return this.#death;
  }

  /** Marks the worker dead; `onDeath` fails every call waiting on it. */
  kill(error: WorkerCrashedError): void {
    if (this.#death) return;
    this.#death = error;
    this.#onDeath?.(error);
  }
}
