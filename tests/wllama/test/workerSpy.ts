/**
 * Records every Worker the page starts and which were terminated, by wrapping
 * the browser's `Worker` (wllama starts its own; nothing else is changed).
 */
export function spyOnWorkers(): {
  readonly alive: number;
  readonly created: number;
  readonly workers: readonly Worker[];
  isAlive(worker: Worker): boolean;
  restore(): void;
} {
  const Original = globalThis.Worker;
  const workers: Worker[] = [];
  const terminated = new Set<Worker>();
  class TrackedWorker extends Original {
    constructor(url: string | URL, options?: WorkerOptions) {
      super(url, options);
      workers.push(this);
    }

    override terminate(): void {
      terminated.add(this);
      super.terminate();
    }
  }
  globalThis.Worker = TrackedWorker;
  return {
    get alive() {
      return workers.filter((w) => !terminated.has(w)).length;
    },
    get created() {
      return workers.length;
    },
    workers,
    isAlive: (worker) => !terminated.has(worker),
    restore() {
      globalThis.Worker = Original;
    },
  };
}
