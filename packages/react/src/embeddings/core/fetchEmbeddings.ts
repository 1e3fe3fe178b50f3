import { type Pool, InklingError, type Priority } from '@inkling/scheduler';
import { type ResultCache, inklingKeys } from '../../base/core/cacheKeys.js';

/** Options of `fetchEmbeddings`. */
export interface FetchEmbeddingsOptions {
  /** Where vectors are kept and looked up, one per text. Default: nowhere. */
  cache?: ResultCache;
  /** The model part of cache keys. Default `'default'`. */
  modelId?: string;
  /** Scheduler band. Default `'normal'`. */
  priority?: Priority;
  /** Pool task. Default `'inkling-embeddings'`. */
  task?: string;
  /** Cancels the job (the promise then rejects with the signal's reason). */
  signal?: AbortSignal;
}

/**
 * Embeds `texts` through the pool's queue: vectors already cached cost
 * nothing, the rest go to the engine as one embedding job, and each new
 * vector is cached under its own text. Resolves with one vector per text, in
 * order; rejects with the job's `InklingError` (this is a query function,
 * for TanStack Query to turn into state).
 *
 * @example
 * const vectors = await fetchEmbeddings(pool, ['cat', 'dog'], { cache, modelId: 'arctic-embed-m' });
 */
export async function fetchEmbeddings(pool: Pool, texts: readonly string[], options: FetchEmbeddingsOptions = {}): Promise<number[][]> {
  const { cache, modelId = 'default', priority = 'normal', task = 'inkling-embeddings', signal } = options;
  const key = (text: string) => inklingKeys.embedding(modelId, text);
  const vectors = new Map<string, number[]>();
  for (const text of texts) {
    const hit = cache?.read(key(text));
    if (Array.isArray(hit)) vectors.set(text, hit as number[]);
  }
  const missing = [...new Set(texts.filter((text) => !vectors.has(text)))];
  if (missing.length > 0) {
    const result = await pool.submit({ kind: 'embedding', params: { input: missing }, priority, task, signal });
    if (result.status !== 'done') {
      if (signal?.aborted) throw signal.reason;
      throw result.error ?? new InklingError(`The embedding job ended ${result.status} before it produced vectors.`);
    }
    for (const item of result.embeddings ?? []) {
      const text = missing[item.index];
      if (text === undefined) continue;
      vectors.set(text, item.embedding);
      cache?.write(key(text), item.embedding);
    }
  }
  return texts.map((text) => {
    const vector = vectors.get(text);
    if (!vector) throw new InklingError(`The engine returned no vector for "${text.slice(0, 40)}".`);
    return vector;
  });
}
