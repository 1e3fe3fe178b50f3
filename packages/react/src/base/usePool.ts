import type { Pool } from '@inkling/scheduler';
import { useInklingContext } from './poolContext.js';

/**
 * The `Pool` of the nearest `<PoolProvider>`. Outside one it throws an
 * error that says to wrap the tree in `<PoolProvider>`.
 *
 * @example
 * const pool = usePool();
 * const onClick = () => pool.cancel('notes-editor');
 */
export function usePool(): Pool {
  return useInklingContext('usePool').pool;
}
