import { WorkerCrashedError } from '@inkling/scheduler';

/**
 * Watches an engine's worker for death. wllama hands the worker's `error`
 * events to its logger and otherwise never answers the calls that wait on a
 * dead worker; a WebAssembly abort (out of memory, a failed assertion) fails
 * them with a `RuntimeError`. Either is death: `race` then rejects with a
 * `WorkerCrashedError`, which tells the pool to replace the engine.
 *
 * @example
 * const watch = new WorkerWatch();
 * const logger = watch.logger(console);
 * await watch.race(wllama.createEmbedding({ input: 'hi' }));
 */
export class WorkerWatch {
  #death: WorkerCrashedError | undefined;
  readonly #waiting = new Set<(error: WorkerCrashedError) => void>();

  /** Why the worker died, once it has. */
  get death(): WorkerCrashedError | undefined {
    return this.#death;
  }

  /** A logger for wllama that passes messages on (unless `quiet`) and notices the worker's `error` events. */
  logger(base: Pick<Console, 'debug' | 'log' | 'warn' | 'error'>, quiet = false): Pick<Console, 'debug' | 'log' | 'warn' | 'error'> {
    const pass = (fn: (...args: unknown[]) => void) => (quiet ? () => {} : fn);
    return {
      debug: pass(base.debug.bind(base)),
      log: pass(base.log.bind(base)),
      warn: pass(base.warn.bind(base)),
      error: (...args: unknown[]) => {
        const event = args.find((a): a is Event => typeof Event !== 'undefined' && a instanceof Event && a.type === 'error');
        if (event) {
          const message = (event as ErrorEvent).message || 'an uncaught error';
          this.kill(
            new WorkerCrashedError(`The engine's worker died (${message}). Inkling is replacing it; try again in a moment.`, {
              device: 'cpu',
              cause: event,
            }),
          );
        }
        if (!quiet || event) base.error(...args);
      },
    };
  }

  /** Marks the worker dead and fails every call waiting on it. */
  kill(error: WorkerCrashedError): void {
    if (this.#death) return;
    this.#death = error;
    for (const reject of this.#waiting) reject(error);
    this.#waiting.clear();
  }

  /** Settles like `promise`, or rejects once the worker dies. */
  race<T>(promise: Promise<T>): Promise<T> {
    if (this.#death) {
      promise.catch(() => {});
      return Promise.reject(this.#death);
    }
    return new Promise<T>((resolve, reject) => {
      this.#waiting.add(reject);
      promise.then(resolve, reject).finally(() => this.#waiting.delete(reject));
    });
  }
}
