import { type Pool } from '@inkling/scheduler';
import { checkDuration } from '@inkling/scheduler/engine';
import { QueryClient, QueryClientContext } from '@tanstack/react-query';
import { type ReactNode, createElement, useContext, useEffect, useMemo, useState } from 'react';
import { type FrameScheduler, animationFrame } from './core/frameScheduler.js';
import { retainPool } from './core/poolLease.js';
import { poolModelId } from './core/poolModelId.js';
import { InklingContext, type InklingContextValue } from './poolContext.js';

/** Props of `<PoolProvider>`. */
export interface PoolProviderProps {
  /** The pool the hooks below use. Build it once (at module scope, or in `useState`). */
  pool: Pool;
  /**
   * Load the pool's first engine when the provider mounts. Loading is
   * reference-counted per pool: StrictMode's mount, unmount, mount and any
   * number of providers load it once. Default `true`.
   */
  load?: boolean;
  /**
   * When the last provider of a pool it loaded unmounts, unload the engines
   * this many milliseconds later unless one mounts again meanwhile. `Infinity`
   * keeps them loaded. Ignored with `load={false}`. Default `1000`. Anything
   * else than 0..2^31-1 or `Infinity` throws an `InvalidOptionError`.
   */
  unloadDelayMs?: number;
  /**
   * The model part of every cache key (translations, embeddings). Name the
   * model (`'Qwen2.5-1.5B-Instruct-q4f16_1-MLC'`) to share cached results
   * between pools or persist them. Default: an id of this pool object, so
   * results never leak from one pool's model to another's.
   */
  modelId?: string;
  /**
   * Where results are cached. Default: the client of the nearest
   * `<QueryClientProvider>` if there is one, else a private client that lives
   * as long as this provider and keeps results until then (it is not given
   * to your own `useQuery` calls). In your own client, cached results are
   * queries under `['inkling']` with no observer, so they follow its
   * `gcTime` (5 minutes by default); keep them longer with
   * `queryClient.setQueryDefaults(['inkling'], { gcTime: Infinity })`.
   */
  queryClient?: QueryClient;
  /**
   * Paces streamed text: hooks render at most once per call. Default:
   * `requestAnimationFrame`, or a 16 ms timer where there is none.
   */
  scheduleFrame?: FrameScheduler;
  children?: ReactNode;
}

function privateClient(): QueryClient {
  // Results of a model at temperature 0 do not go stale, and nobody else
  // shares this client: keep them as long as the provider lives.
  return new QueryClient({ defaultOptions: { queries: { staleTime: Infinity, gcTime: Infinity, retry: false } } });
}

/**
 * Puts an `Pool` in context for the hooks and loads it on mount. Does
 * nothing during render: loading starts in an effect, so server rendering
 * and StrictMode are safe.
 *
 * @example
 * const pool = new EnginePool({ createEngine: webllmEngines({ model }) });
 *
 * createRoot(root).render(
 *   <PoolProvider pool={pool} modelId={model}>
 *     <App />
 *   </PoolProvider>,
 * );
 */
export function PoolProvider({
  pool,
  load,
  unloadDelayMs,
  modelId,
  queryClient,
  scheduleFrame = animationFrame,
  children,
}: PoolProviderProps): ReactNode {
  // A check, not work: a bad prop fails the render that got it, naming the prop.
  checkDuration(unloadDelayMs, '<PoolProvider> "unloadDelayMs"');
  const nearest = useContext(QueryClientContext);
  const [own] = useState(privateClient);
  const client = queryClient ?? nearest ?? own;

  // QueryClient counts its mounts, so mounting one a QueryClientProvider
  // already mounted is harmless; a private or passed-in one needs it.
  useEffect(() => {
    client.mount();
    return () => client.unmount();
  }, [client]);

  // Left out, `load` and `unloadDelayMs` take retainPool's defaults (the ones documented above).
  useEffect(() => retainPool(pool, { load, unloadDelayMs }), [pool, load, unloadDelayMs]);

  const value = useMemo<InklingContextValue>(
    () => ({ pool, modelId: modelId ?? poolModelId(pool), queryClient: client, scheduleFrame }),
    [pool, modelId, client, scheduleFrame],
  );
  // createElement rather than JSX: the source runs as it is under any JSX setting (tsx, Vite, tests).
  return createElement(InklingContext.Provider, { value }, children);
}
