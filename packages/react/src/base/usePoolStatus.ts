import type { PoolStatus } from '@inkling/scheduler';
import { useSyncExternalStore } from 'react';
import { usePool } from './usePool.js';

/**
 * The pool's status snapshot (engines, jobs, queue, load phase), re-rendering
 * when it changes; changes are batched per microtask. For load progress
 * alone, `useModelLoad` renders far less often.
 *
 * @example
 * const { running, queued, engines } = usePoolStatus();
 * return <p>{running} running, {queued} waiting on {engines.length} engines</p>;
 */
export function usePoolStatus(): PoolStatus {
  const pool = usePool();
  return useSyncExternalStore(pool.subscribe, pool.getSnapshot, pool.getSnapshot);
}
