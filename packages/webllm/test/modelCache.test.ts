import { describe, expect, it } from 'vitest';
import { ModelNotFoundError, type WebLLMModule, deleteModel, isModelCached } from '../src/index.js';
import { appConfig } from './helpers.js';

/** A WebLLM module whose cache is a set of model ids, recording the app configs it was given. */
function cacheModule(cached: string[]) {
  const seen: unknown[] = [];
  const ids = new Set(cached);
  const module = {
    prebuiltAppConfig: { model_list: [] },
    hasModelInCache: async (id: string, config: unknown) => (seen.push(config), ids.has(id)),
    deleteModelAllInfoInCache: async (id: string, config: unknown) => {
      seen.push(config);
      ids.delete(id);
    },
  } as unknown as WebLLMModule;
  return { module, seen };
}

describe('isModelCached / deleteModel', () => {
  it('ask WebLLM with the same cache the engines use', async () => {
    const { module, seen } = cacheModule(['Tiny-q4f32_1']);
    expect(await isModelCached('Tiny-q4f32_1', { appConfig, webllm: module, cache: 'indexeddb' })).toBe(true);
    await deleteModel('Tiny-q4f32_1', { appConfig, webllm: module, cache: 'indexeddb' });
    expect(await isModelCached('Tiny-q4f32_1', { appConfig, webllm: module })).toBe(false);
    expect(seen[0]).toMatchObject({ cacheBackend: 'indexeddb', useIndexedDBCache: true });
  });

  it('name an unknown model', async () => {
    const { module } = cacheModule([]);
    await expect(isModelCached('Nope', { appConfig, webllm: module })).rejects.toBeInstanceOf(ModelNotFoundError);
  });

  it('import the real WebLLM when none is given', async () => {
    await expect(deleteModel('Nope')).rejects.toBeInstanceOf(ModelNotFoundError);
  });
});
