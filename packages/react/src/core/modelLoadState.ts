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
    const next: ModelLoadState = {
      status: pool.phase,
      progress: pool.phase === 'ready' ? 1 : (pool.loadProgress?.progress ?? 0),
      text: pool.loadProgress?.text ?? '',
      error: pool.error,
    };
    if (last && last.status === next.status && last.progress === next.progress && last.text === next.text && last.error === next.error) {
      return last;
    }
    last = next;
    return next;
  };
}
