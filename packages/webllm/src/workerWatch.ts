import { WorkerCrashedError } from './errors.js';
import type { WorkerLike } from './types.js';

/**
 * Watches an engine's worker for death: a request to a dead worker would
 * wait for ever. `onDeath` hears of it once (the client fails what is
 * waiting), and `race` rejects with the `WorkerCrashedError` from then on.
 *
 * @example
 * const watch = new WorkerWatch(worker, (death) => failEverything(death));
 * const answer = await watch.race(request);
 */
export class WorkerWatch {
  #death: WorkerCrashedError | undefined;
  readonly #waiting = new Set<(error: WorkerCrashedError) => void>();
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

  /** Marks the worker dead and fails every call waiting on it. */
  kill(error: WorkerCrashedError): void {
    if (this.#death) return;
    this.#death = error;
    for (const reject of this.#waiting) reject(error);
    this.#waiting.clear();
    this.#onDeath?.(error);
  }

  /** Settles like `promise`, or rejects when the worker dies first. */
  race<T>(promise: Promise<T>): Promise<T> {
    if (this.#death) return Promise.reject(this.#death);
    return new Promise<T>((resolve, reject) => {
      this.#waiting.add(reject);
      promise.then(resolve, reject).finally(() => this.#waiting.delete(reject));
    });
  }
}
