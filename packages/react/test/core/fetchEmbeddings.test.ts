// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { inklingKeys, mapCache } from '../../src/base/core/cacheKeys.js';
import { fetchEmbeddings } from '../../src/embeddings/core/fetchEmbeddings.js';
import { engineCalls, fakePool } from './helpers.js';

describe('fetchEmbeddings', () => {
  it('embeds only the texts not cached, in one job, and caches each vector', async () => {
    const { pool, createEngine } = fakePool();
    await pool.load();
    const cache = mapCache();
    cache.write(inklingKeys.embedding('m', 'cat'), [1, 0]);
    const vectors = await fetchEmbeddings(pool, ['cat', 'dog', 'dog', 'eel'], { cache, modelId: 'm' });
    expect(vectors[0]).toEqual([1, 0]);
    expect(vectors[1]).toEqual(vectors[2]);
    expect(vectors[1]).toHaveLength(8);
    expect(engineCalls(createEngine).map((c) => c.request)).toEqual([{ input: ['dog', 'eel'] }]);
    expect(pool.getSnapshot().recent.at(-1)).toMatchObject({ kind: 'embedding', task: 'inkling-embeddings', priority: 'normal' });
    await fetchEmbeddings(pool, ['eel', 'cat'], { cache, modelId: 'm' });
    expect(engineCalls(createEngine)).toHaveLength(1);
  });

  it('rejects with the job error, for TanStack Query to hold as state', async () => {
    const { pool } = fakePool({ embeddings: false });
    await pool.load();
    await expect(fetchEmbeddings(pool, ['x'])).rejects.toMatchObject({ name: 'InvalidJobError' });
  });
});
