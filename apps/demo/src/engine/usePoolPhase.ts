import type { Pool, PoolStatus } from '@inkling/react';
import { useSyncExternalStore } from 'react';

/**
 * The phase of a pool given by reference (the app holds more than one, so
 * not the provider's): `idle`, `loading`, `ready` or `error`.
 */
export function usePoolPhase(pool: Pool): PoolStatus['phase'] {
  return useSyncExternalStore(pool.subscribe, () => pool.getSnapshot().phase);
}
