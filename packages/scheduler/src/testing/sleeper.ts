/**
 * Waits on `setTimeout` (so fake timers drive it), or on a microtask for 0 ms,
 * and can fail every pending wait at once (an engine dying or unloading).
 */
export class Sleeper {
  readonly #pending = new Set<(error: unknown) => void>();

  sleep(ms: number): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      let handle: ReturnType<typeof setTimeout> | undefined;
      const fail = (error: unknown) => {
        if (handle !== undefined) clearTimeout(handle);
        this.#pending.delete(fail);
        reject(error);
      };
      const done = () => {
        this.#pending.delete(fail);
        resolve();
      };
      this.#pending.add(fail);
      if (ms > 0) handle = setTimeout(done, ms);
      else queueMicrotask(done);
    });
  }

  /** Waits until `cancelAll` (a wedge: only death or unload ends it). */
  forever(): Promise<never> {
    return new Promise<never>((_resolve, reject) => {
      const fail = (error: unknown) => {
        this.#pending.delete(fail);
        reject(error);
      };
      this.#pending.add(fail);
    });
  }

  cancelAll(error: unknown): void {
    for (const fail of [...this.#pending]) fail(error);
  }
}
