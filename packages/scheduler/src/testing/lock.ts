/** A FIFO lock with `permits` holders at once (WebLLM's per-model lock when 1). */
export class Lock {
  #free: number;
  readonly #waiting: Array<() => void> = [];

  constructor(permits: number) {
    this.#free = permits;
  }

  /** Resolves with the function that gives the permit back (once). */
  async acquire(): Promise<() => void> {
    if (this.#free > 0) this.#free -= 1;
    else await new Promise<void>((resolve) => this.#waiting.push(resolve));
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.#waiting.shift();
      if (next) next();
      else this.#free += 1;
    };
  }
}
