import type { WllamaLoadProgress } from './types.js';

const mb = (n: number) => (n / 1_048_576).toFixed(1);

/** The share of the bar the download takes; loading into llama.cpp takes the rest. */
const FETCH_SHARE = 0.9;

/**
 * Turns bytes received and load steps into `WllamaLoadProgress` reports whose
 * `progress` never goes back. Without a `Content-Length` the download's share
 * stays at 0 until it ends.
 *
 * @example
 * const report = new ProgressReporter('model.gguf', onProgress, () => performance.now());
 * report.bytes(1024, 4096); // progress 0.225
 */
export class ProgressReporter {
  #progress = 0;
  #loaded = 0;
  #total = 0;
  readonly #name: string;
  readonly #emit: (report: WllamaLoadProgress) => void;
  readonly #now: () => number;
  readonly #start: number;

  constructor(name: string, emit: (report: WllamaLoadProgress) => void, now: () => number) {
    this.#name = name;
    this.#emit = emit;
    this.#now = now;
    this.#start = now();
  }

  /** Bytes of the model received so far, and its size (`0` when unknown). */
  bytes(loaded: number, total: number): void {
    this.#loaded = loaded;
    this.#total = total;
    const fraction = total > 0 ? Math.min(1, loaded / total) : 0;
    const text = total > 0 ? `Fetching ${this.#name}: ${mb(loaded)} of ${mb(total)} MB` : `Fetching ${this.#name}: ${mb(loaded)} MB`;
    this.#report('fetch', FETCH_SHARE * fraction, text);
  }

  /** The file is here; llama.cpp reads it. */
  loading(): void {
    if (this.#total === 0) this.#total = this.#loaded;
    this.#report('load', FETCH_SHARE, `Loading ${this.#name} into llama.cpp`);
  }

  /** The engine is ready. */
  ready(): void {
    this.#report('ready', 1, `Loaded ${this.#name}`);
  }

  #report(phase: WllamaLoadProgress['phase'], progress: number, text: string): void {
    this.#progress = Math.max(this.#progress, progress);
    this.#emit({
      progress: this.#progress,
      text,
      phase,
      loadedBytes: this.#loaded,
      totalBytes: this.#total,
      timeElapsed: (this.#now() - this.#start) / 1000,
    });
  }
}
