import { useModelLoad } from '@inkling/react';

/**
 * An invisible marker of the pool's load state, for play functions to wait
 * on (`[data-pool-ready="true"]`).
 *
 * @example
 * <PoolReady />
 */
export function PoolReady() {
  const { status } = useModelLoad();
  return <span hidden data-pool-ready={status === 'ready'} data-pool-status={status} />;
}
