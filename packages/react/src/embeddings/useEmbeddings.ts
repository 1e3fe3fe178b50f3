import type { InklingError, Priority } from '@inkling/scheduler';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { inklingKeys, queryClientCache } from '../base/core/cacheKeys.js';
import { fetchEmbeddings } from './core/fetchEmbeddings.js';
import { useInklingContext } from '../base/poolContext.js';

/** Options of `useEmbeddings`. */
export interface UseEmbeddingsOptions {
  /** The texts to embed, one vector each. */
  texts: readonly string[];
  /** Off: nothing is requested. Default `true`. */
  enabled?: boolean;
  /** Scheduler band. Default `'normal'`; `'low'` for background indexing. */
  priority?: Priority;
  /** Pool task. Default `'inkling-embeddings'`. */
  task?: string;
  /** Throw the error to the nearest error boundary instead of returning it. Default `false`. */
  throwOnError?: boolean;
}

/** `idle`: nothing to do (no texts, or not enabled); `queued`: the job is in the pool; then `done` or `error`. */
export type EmbeddingsStatus = 'idle' | 'queued' | 'done' | 'error';

/** What `useEmbeddings` returns. */
export interface UseEmbeddingsResult {
  /** One vector per text, in order, once `done`. */
  readonly embeddings: number[][] | undefined;
  readonly status: EmbeddingsStatus;
  readonly error: InklingError | null;
  /** Asks again (cached vectors still cost nothing). */
  refetch(): void;
}

/**
 * Embedding vectors for `texts`, as embedding jobs through the pool's queue
 * and cached in TanStack Query per text: a text embedded before costs no
 * engine call, whatever list it comes in. Needs a pool whose engines load an
 * embedding model.
 *
 * @example
 * const { embeddings, status } = useEmbeddings({ texts: notes.map((n) => n.title) });
 * if (status === 'done') rank(query, embeddings);
 */
export function useEmbeddings(options: UseEmbeddingsOptions): UseEmbeddingsResult {
  const { pool, queryClient, modelId } = useInklingContext('useEmbeddings');
  const { texts, enabled = true, priority, task, throwOnError = false } = options;
  const query = useQuery(
    {
      queryKey: inklingKeys.embeddings(modelId, texts),
      queryFn: ({ signal }) => fetchEmbeddings(pool, texts, { cache: queryClientCache(queryClient), modelId, priority, task, signal }),
      enabled: enabled && texts.length > 0,
      staleTime: Number.POSITIVE_INFINITY,
      retry: false,
      throwOnError,
    },
    queryClient,
  );
  const { data, error, refetch } = query;
  const status: EmbeddingsStatus = query.isError
    ? 'error'
    : query.isSuccess
      ? 'done'
      : query.fetchStatus === 'fetching'
        ? 'queued'
        : 'idle';
  return useMemo(
    () => ({ embeddings: data, status, error: (error as InklingError | null) ?? null, refetch: () => void refetch() }),
    [data, status, error, refetch],
  );
}
