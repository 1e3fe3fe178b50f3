import { WorkerCrashedError } from './errors.js';
import type { WorkerLike } from './types.js';

/**
 * Watches an engine's worker for death. WebLLM's client never hears of it:
 * a request to a dead worker waits for ever. So every call goes through
 * `race`, which rejects with a `WorkerCrashedError` once the worker dies.
 *
 * @example
 * const watch = new WorkerWatch(worker);
 * const chunk = await watch.race(iterator.next());
 */
export class WorkerWatch {
  #death: WorkerCrashedError | undefined;
  readonly #waiting = new Set<(error: WorkerCrashedError) => void>();

  constructor(worker: WorkerLike) {
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
