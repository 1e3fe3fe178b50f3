import type { PoolTimers } from './types.js';

/**
 * Watches engine calls that were asked to stop. Each gets `timeoutMs` to show
 * progress (a chunk re-arms it) or to answer (which clears it); one that does
 * neither is reported through `onStall`, once. With `timeoutMs` `Infinity`
 * nothing is ever watched.
 *
 * Why a call and not the engine: on an engine with several lanes the other
 * lanes may stream happily while one call ignores its stop, and that lane
 * would be lost for good.
 */
export class StallWatchdog<K> {
  readonly #timers: PoolTimers;
  /** How long a stopped call may stay silent, in milliseconds. */
  readonly timeoutMs: number;
  readonly #watched = new Map<K, { handle: unknown; onStall: () => void }>();

  constructor(timers: PoolTimers, timeoutMs: number) {
    this.#timers = timers;
    this.timeoutMs = timeoutMs;
  }

  /** Starts watching `key` (or restarts its clock), calling `onStall` if it stays silent. */
  watch(key: K, onStall: () => void): void {
    if (this.timeoutMs === Number.POSITIVE_INFINITY) return;
    this.stop(key);
    const handle = this.#timers.setTimeout(() => {
      this.#watched.delete(key);
      onStall();
    }, this.timeoutMs);
    this.#watched.set(key, { handle, onStall });
  }

  /** `key` made progress: its clock starts again. */
  progress(key: K): void {
    const entry = this.#watched.get(key);
    if (entry) this.watch(key, entry.onStall);
  }

  /** `key` answered, or no longer matters. */
  stop(key: K): void {
    const entry = this.#watched.get(key);
    if (!entry) return;
    this.#watched.delete(key);
    this.#timers.clearTimeout(entry.handle);
  }

  stopAll(): void {
    for (const key of [...this.#watched.keys()]) this.stop(key);
  }
}
