import { type Pool, InklingError } from '@inkling/scheduler';
import type { QueryClient } from '@tanstack/react-query';
import { createContext, useContext } from 'react';
import type { FrameScheduler } from './core/frameScheduler.js';

/** What `<PoolProvider>` gives the hooks below it. */
export interface InklingContextValue {
  readonly pool: Pool;
  /** The model part of every cache key. */
  readonly modelId: string;
  /** Where results are cached. */
  readonly queryClient: QueryClient;
  /** Paces streamed text: at most one render per frame. */
  readonly scheduleFrame: FrameScheduler;
}

/**
 * The context `<PoolProvider>` fills; hooks read it through `useInklingContext`.
 *
 * @example
 * <InklingContext.Provider value={{ pool, modelId, queryClient, scheduleFrame }}>...</InklingContext.Provider>
 */
export const InklingContext = createContext<InklingContextValue | null>(null);

/**
 * The provider's value; outside one, an error that names the hook and the fix.
 *
 * @example
 * const { pool, modelId } = useInklingContext('useMyFeature');
 */
export function useInklingContext(hook: string): InklingContextValue {
  const value = useContext(InklingContext);
  if (!value) {
    throw new InklingError(
      `${hook}() found no engine pool. Wrap your tree in <PoolProvider pool={pool}>, pool being a new EnginePool({ createEngine }).`,
    );
  }
  return value;
}
