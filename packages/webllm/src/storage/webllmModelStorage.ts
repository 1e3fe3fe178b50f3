import {
  defaultLocks,
  defaultStorageManager,
  deleteEach,
  deleteUnlessInUse,
  type LockManagerLike,
  requestPersistence,
  type StorageManagerLike,
  storagePersisted,
  storageRoom,
} from '@inkling/scheduler/storage';
import { type ModelStorage, type ModelStorageState, type StoredModel } from '@inkling/scheduler';
import { loadWebLLM } from './loadWebLLM.js';
import type { ModelCacheOptions } from './modelCache.js';
import { resolveAppConfig } from '../resolveAppConfig.js';
import type { WebLLMAppConfig, WebLLMModule } from '../types.js';
import { cachedWeights, MANIFESTS, modelBaseUrl, openBackend, removeFiles } from './webllmCachedFiles.js';
import { webllmLockName } from './webllmRoom.js';

/** Options of `webllmModelStorage`: the engines' `appConfig` and `cache`, and the world. */
export interface WebLLMModelStorageOptions extends ModelCacheOptions {
  /** For the storage figures and persistence. Default: `navigator.storage`, looked up when used. */
  storage?: StorageManagerLike;
  /** Web Locks, so a model being downloaded or loaded in any tab is not deleted. Default: `navigator.locks`, looked up when used. */
  locks?: LockManagerLike;
}

/**
 * WebLLM's model cache as a `ModelStorage`: the models of `appConfig` (default
 * WebLLM's `prebuiltAppConfig`) that have files in the cache, each with the
 * bytes of its weight shards there and the whole size from its manifest;
 * `complete` is WebLLM's own `hasModelInCache`. Deleting uses WebLLM's
 * `deleteModelAllInfoInCache` (weights, tokenizer, config, library). Reads
 * the Cache API and IndexedDB backends; for `'opfs'` and `'cross-origin'` a
 * model is listed only when WebLLM says it is whole, with its manifest's size.
 * WebLLM records no last use, so `lastUsed` is `undefined`. A model being
 * downloaded or loaded by `webllmEngines` in any tab is not deleted
 * (`ModelInUseError`, nothing deleted); one already loaded keeps running
 * from GPU memory, and the next load downloads it again.
 *
 * @example
 * const storage = webllmModelStorage({ appConfig });
 * const { models, room } = await storage.read();
 */
export function webllmModelStorage(options: WebLLMModelStorageOptions = {}): ModelStorage {
  const manager = () => options.storage ?? defaultStorageManager();
  const locks = () => options.locks ?? defaultLocks();
  const resolve = async () => {
    const webllm = await loadWebLLM(options.webllm);
    const appConfig = resolveAppConfig(options.appConfig ?? (webllm.prebuiltAppConfig as WebLLMAppConfig), options.cache);
    return { webllm, appConfig };
  };
  const storage: ModelStorage = {
    async read(): Promise<ModelStorageState> {
      const { webllm, appConfig } = await resolve();
      const files = await openBackend(appConfig.cacheBackend ?? 'cache');
      const models: StoredModel[] = [];
      for (const record of appConfig.model_list) {
        if (files) {
          const weights = await cachedWeights(files, record);
          if (weights.manifestUrl === undefined) continue;
          const complete = await webllm.hasModelInCache(record.model_id, appConfig);
          models.push({ model: record.model_id, bytes: weights.bytes, totalBytes: weights.totalBytes, complete, lastUsed: undefined });
        } else if (await webllm.hasModelInCache(record.model_id, appConfig)) {
          models.push({ model: record.model_id, bytes: 0, totalBytes: undefined, complete: true, lastUsed: undefined });
        }
      }
      return { models, room: await storageRoom(manager()), persisted: await storagePersisted(manager()) };
    },
    async delete(model: string): Promise<void> {
      const { webllm, appConfig } = await resolve();
      await deleteUnlessInUse(locks(), webllmLockName(model), model, () => remove(webllm, appConfig, model));
    },
    async deleteAll(): Promise<void> {
      const { models } = await storage.read();
      await deleteEach(models, ({ model }) => storage.delete(model));
    },
    persist: () => requestPersistence(manager()),
  };
  return storage;
}

async function remove(webllm: WebLLMModule, appConfig: WebLLMAppConfig, model: string): Promise<void> {
  await webllm.deleteModelAllInfoInCache(model, appConfig);
  // WebLLM deletes the shards but keeps the weights' manifest, which would list the model as a partial download.
  const record = appConfig.model_list.find((r) => r.model_id === model);
  if (record)
    await removeFiles(
      appConfig.cacheBackend ?? 'cache',
      MANIFESTS.map((name) => new URL(name, modelBaseUrl(record.model)).href),
    );
}
