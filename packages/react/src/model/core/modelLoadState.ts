import type { InklingError, PoolPhase, PoolStatus } from '@inkling/scheduler';

/** Where the model's first engine is, as `useModelLoad` reports it. */
export interface ModelLoadState {
  readonly status: PoolPhase;
  /** 0..1: the first engine's load progress; 1 once ready. */
  readonly progress: number;
  /** What is happening, in words (from WebLLM's progress reports); `''` when nothing is. */
  readonly text: string;
  /** Why `status` is `'error'`; `null` otherwise. */
  readonly error: InklingError | null;
  /** Seconds since the load started, when the engine reports it (`timeElapsed`); else `null`. */
  readonly timeElapsed: number | null;
  /** Bytes fetched so far, when the engine reports them (`loadedBytes`); else `null`. */
  readonly loadedBytes: number | null;
  /** Bytes to fetch in all, when the engine reports them (`totalBytes`); else `null`. */
  readonly totalBytes: number | null;
}

function numberOr(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

/**
 * A selector from the pool's snapshot to its load state that returns the same
 * object while the load state is the same, so a progress bar does not render
 * for every token streamed elsewhere in the pool.
 *
 * @example
 * const select = createModelLoadSelector();
 * useSyncExternalStore(pool.subscribe, () => select(pool.getSnapshot()));
 */
export function createModelLoadSelector(): (status: PoolStatus) => ModelLoadState {
  let last: ModelLoadState | undefined;
  return (pool) => {
    const report = pool.loadProgress;
    const next: ModelLoadState = {
      status: pool.phase,
      progress: pool.phase === 'ready' ? 1 : (report?.progress ?? 0),
      text: report?.text ?? '',
      error: pool.error,
      timeElapsed: numberOr(report?.timeElapsed),
      loadedBytes: numberOr(report?.loadedBytes),
      totalBytes: numberOr(report?.totalBytes),
    };
    if (last && (Object.keys(next) as Array<keyof ModelLoadState>).every((key) => last?.[key] === next[key])) return last;
    last = next;
    return next;
  };
}
