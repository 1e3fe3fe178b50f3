import { useCallback, useMemo, useState, useSyncExternalStore } from 'react';
import { type ModelLoadState, createModelLoadSelector } from './core/modelLoadState.js';
import { usePool } from '../base/usePool.js';

/** Options of `useModelLoad`. */
export interface UseModelLoadOptions {
  /** Throw a load error to the nearest error boundary instead of returning it. Default `false`. */
  throwOnError?: boolean;
}

/** What `useModelLoad` returns. */
export interface UseModelLoadResult extends ModelLoadState {
  /** Loads the first engine (a no-op while loading or loaded). Never rejects: a failure is `error`. */
  load(): Promise<void>;
  /** Cancels every job and unloads every engine. */
  unload(): Promise<void>;
}

/**
 * The model's load state and progress, for a progress bar or a "Load model"
 * button. Renders only when the load state changes, not for every token
 * streamed elsewhere.
 *
 * @example
 * const { status, progress, text, error, load } = useModelLoad();
 * if (status === 'loading') return <progress value={progress} title={text} />;
 * if (status === 'error') return <button onClick={load}>Retry: {error.message}</button>;
 */
export function useModelLoad(options: UseModelLoadOptions = {}): UseModelLoadResult {
  const pool = usePool();
  const [select] = useState(createModelLoadSelector);
  const read = useCallback(() => select(pool.getSnapshot()), [pool, select]);
  const state = useSyncExternalStore(pool.subscribe, read, read);
  const load = useCallback(() => pool.load().then(ignore, ignore), [pool]);
  const unload = useCallback(() => pool.unload(), [pool]);
  if (options.throwOnError && state.error) throw state.error;
  return useMemo(() => ({ ...state, load, unload }), [state, load, unload]);
}

function ignore(): void {}
