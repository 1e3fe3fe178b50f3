import {
  defaultStorageManager,
  type ModelStorage,
  type ModelStorageState,
  requestPersistence,
  type StorageManagerLike,
  storagePersisted,
  storageRoom,
  StorageUnavailableError,
  type StoredModel,
} from '@inkling/scheduler';
import { loadWebLLM } from './loadWebLLM.js';
import type { ModelCacheOptions } from './modelCache.js';
import { resolveAppConfig } from './resolveAppConfig.js';
import type { WebLLMAppConfig } from './types.js';

/** Options of `webllmModelStorage`: the engines' `appConfig` and `cache`, and the world. */
export interface WebLLMModelStorageOptions extends ModelCacheOptions {
  /** For the storage figures and persistence. Default: `navigator.storage`, looked up when used. */
  storage?: StorageManagerLike;
}

/** WebLLM's cache scope for weights and tokenizers (its Cache API cache, or IndexedDB database, of this name). */
const MODEL_SCOPE = 'webllm/model';
/** The weights' manifest: 0.2.80 on, and before. */
const MANIFESTS = ['tensor-cache.json', 'ndarray-cache.json'];

/** What a backend says of one model's files. */
interface CachedFiles {
  has(url: string): boolean;
  manifest(url: string): Promise<{ records?: Array<{ dataPath: string; nbytes: number }> } | undefined>;
}

/**
 * WebLLM's model cache as a `ModelStorage`: the models of `appConfig` (default
 * WebLLM's `prebuiltAppConfig`) that have files in the cache, each with the
 * bytes of its weight shards there and the whole size from its manifest;
 * `complete` is WebLLM's own `hasModelInCache`. Deleting uses WebLLM's
 * `deleteModelAllInfoInCache` (weights, tokenizer, config, library). Reads
 * the Cache API and IndexedDB backends; for `'opfs'` and `'cross-origin'` a
 * model is listed only when WebLLM says it is whole, with its manifest's size.
 * WebLLM records no last use, so `lastUsed` is `undefined`. Unload pools
 * using a model before deleting it: WebLLM does not guard a model in use.
 *
 * @example
 * const storage = webllmModelStorage({ appConfig });
 * const { models, room } = await storage.read();
 */
export function webllmModelStorage(options: WebLLMModelStorageOptions = {}): ModelStorage {
  const manager = () => options.storage ?? defaultStorageManager();
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
        const base = modelBaseUrl(record.model);
        const manifestUrl = MANIFESTS.map((name) => new URL(name, base).href).find((url) => files?.has(url) ?? true);
        if (files && manifestUrl === undefined) continue;
        const complete = await webllm.hasModelInCache(record.model_id, appConfig);
        if (!files && !complete) continue;
        const manifest = files ? await files.manifest(manifestUrl!) : undefined;
        const shards = manifest?.records ?? [];
        const totalBytes = shards.length ? shards.reduce((sum, r) => sum + r.nbytes, 0) : undefined;
        const bytes = files
          ? shards.filter((r) => files.has(new URL(r.dataPath, base).href)).reduce((sum, r) => sum + r.nbytes, 0)
          : (totalBytes ?? 0);
        models.push({ model: record.model_id, bytes, totalBytes, complete, lastUsed: undefined });
      }
      return { models, room: await storageRoom(manager()), persisted: await storagePersisted(manager()) };
    },
    async delete(model: string): Promise<void> {
      const { webllm, appConfig } = await resolve();
      await webllm.deleteModelAllInfoInCache(model, appConfig);
      // WebLLM deletes the shards but keeps the weights' manifest, which would list the model as a partial download.
      const record = appConfig.model_list.find((r) => r.model_id === model);
      if (record)
        await removeFiles(
          appConfig.cacheBackend ?? 'cache',
          MANIFESTS.map((name) => new URL(name, modelBaseUrl(record.model)).href),
        );
    },
    async deleteAll(): Promise<void> {
      const { models } = await storage.read();
      for (const { model } of models) await storage.delete(model);
    },
    persist: () => requestPersistence(manager()),
  };
  return storage;
}

/** The base URL WebLLM resolves a record's files against: `<repo>/resolve/main/` for a Hugging Face-style URL. */
function modelBaseUrl(model: string): string {
  const withSlash = model.endsWith('/') ? model : `${model}/`;
  return new URL(/.+\/resolve\/.+\//.test(withSlash) ? withSlash : `${withSlash}resolve/main/`).href;
}

/** The cached URLs of the weights' scope, read once; `undefined` for a backend only WebLLM reads. */
async function openBackend(backend: string): Promise<CachedFiles | undefined> {
  if (backend === 'indexeddb') return openIndexedDb();
  if (backend !== 'cache') return undefined;
  if (typeof caches === 'undefined') throw new StorageUnavailableError('the Cache API (caches) is missing');
  const cache = await caches.open(MODEL_SCOPE);
  const urls = new Set((await cache.keys()).map((request) => request.url));
  return {
    has: (url) => urls.has(url),
    manifest: async (url) => (await cache.match(url))?.json(),
  };
}

async function openIndexedDb(): Promise<CachedFiles> {
  if (typeof indexedDB === 'undefined') throw new StorageUnavailableError('IndexedDB is missing');
  const db = await openExisting();
  if (!db) return { has: () => false, manifest: async () => undefined };
  try {
    if (!db.objectStoreNames.contains('urls')) return { has: () => false, manifest: async () => undefined };
    const keys = await idb<IDBValidKey[]>(db.transaction('urls').objectStore('urls').getAllKeys());
    const urls = new Set(keys.map(String));
    const manifests = new Map<string, unknown>();
    for (const url of urls) {
      if (MANIFESTS.some((name) => url.endsWith(`/${name}`)))
        manifests.set(url, (await idb<{ data?: unknown }>(db.transaction('urls').objectStore('urls').get(url)))?.data);
    }
    return { has: (url) => urls.has(url), manifest: async (url) => manifests.get(url) as never };
  } finally {
    db.close();
  }
}

async function removeFiles(backend: string, urls: string[]): Promise<void> {
  if (backend === 'cache' && typeof caches !== 'undefined') {
    const cache = await caches.open(MODEL_SCOPE);
    for (const url of urls) await cache.delete(url);
  }
  if (backend === 'indexeddb' && typeof indexedDB !== 'undefined') {
    const db = await openExisting();
    if (!db) return;
    try {
      if (db.objectStoreNames.contains('urls'))
        for (const url of urls) await idb(db.transaction('urls', 'readwrite').objectStore('urls').delete(url));
    } finally {
      db.close();
    }
  }
}

/** WebLLM's weights database, or `undefined` when WebLLM never made it (it is never created here). */
async function openExisting(): Promise<IDBDatabase | undefined> {
  // A database made without WebLLM's upgrade step would lack its store for good.
  const known = typeof indexedDB.databases === 'function' ? await indexedDB.databases() : [{ name: MODEL_SCOPE }];
  if (!known.some((d) => d.name === MODEL_SCOPE)) return undefined;
  return new Promise<IDBDatabase>((resolve, reject) => {
    const request = indexedDB.open(MODEL_SCOPE);
    request.addEventListener('success', () => resolve(request.result));
    request.addEventListener('error', () => reject(new StorageUnavailableError('IndexedDB refused to open', { cause: request.error })));
  });
}

function idb<T>(request: IDBRequest): Promise<T> {
  return new Promise((resolve, reject) => {
    request.addEventListener('success', () => resolve(request.result as T));
    request.addEventListener('error', () => reject(request.error));
  });
}
