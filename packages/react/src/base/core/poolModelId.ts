import type { Pool } from '@inkling/scheduler';

const ids = new WeakMap<Pool, string>();
let next = 0;

/**
 * The model part of cache keys when the app names none: an id of the pool
 * object itself, so results never cross from one pool (and model) to
 * another. It is not stable across page loads; name the model with
 * `<PoolProvider modelId>` to share or persist cached results.
 *
 * @example
 * poolModelId(pool); // 'pool-1'
 */
export function poolModelId(pool: Pool): string {
  let id = ids.get(pool);
  if (id === undefined) {
    next += 1;
    id = `pool-${next}`;
    ids.set(pool, id);
  }
  return id;
}
