import { StorageUnavailableError } from '@inkling/scheduler';
import type { WebLLMModelRecord } from '../types.js';

/** WebLLM's cache scope for weights and tokenizers (its Cache API cache, or IndexedDB database, of this name). */
export const MODEL_SCOPE = 'webllm/model';
/** The weights' manifest: 0.2.80 on, and before. */
export const MANIFESTS = ['tensor-cache.json', 'ndarray-cache.json'];

/** A weights manifest: one record per shard, with its size. */
export interface WeightsManifest {
  records?: Array<{ dataPath: string; nbytes: number }>;
}

/** What a backend says of one model's files. */
export interface CachedFiles {
  has(url: string): boolean;
  manifest(url: string): Promise<WeightsManifest | undefined>;
}

/** One model's weights as a cache holds them: the manifest found (if any), the shards' bytes there and in all. */
export interface CachedWeights {
  manifestUrl: string | undefined;
  /** Bytes of the shards in the cache. */
  bytes: number;
  /** The manifest's sum; `undefined` without a manifest. */
  totalBytes: number | undefined;
  /** The manifest and every shard it names are there (what WebLLM's `hasModelInCache` checks). */
  complete: boolean;
}

/** The base URL WebLLM resolves a record's files against: `<repo>/resolve/main/` for a Hugging Face-style URL. */
export function modelBaseUrl(model: string): string {
  const withSlash = model.endsWith('/') ? model : `${model}/`;
  return new URL(/.+\/resolve\/.+\//.test(withSlash) ? withSlash : `${withSlash}resolve/main/`).href;
}

/** Sums a manifest's shards: all of them, or those `has` finds. */
export function manifestBytes(manifest: WeightsManifest | undefined, base: string, has: (url: string) => boolean = () => true): number {
  return (manifest?.records ?? []).filter((r) => has(new URL(r.dataPath, base).href)).reduce((sum, r) => sum + r.nbytes, 0);
}

/** What the cache holds of one record's weights. */
export async function cachedWeights(files: CachedFiles, record: Pick<WebLLMModelRecord, 'model'>): Promise<CachedWeights> {
  const base = modelBaseUrl(record.model);
  const manifestUrl = MANIFESTS.map((name) => new URL(name, base).href).find((url) => files.has(url));
  const manifest = manifestUrl === undefined ? undefined : await files.manifest(manifestUrl);
  const shards = manifest?.records ?? [];
  const bytes = manifestBytes(manifest, base, files.has);
  const complete = manifest !== undefined && shards.every((r) => files.has(new URL(r.dataPath, base).href));
  return { manifestUrl, bytes, totalBytes: shards.length ? manifestBytes(manifest, base) : undefined, complete };
}

/** The cached URLs of the weights' scope, read once; `undefined` for a backend only WebLLM reads (`'opfs'`, `'cross-origin'`). */
export async function openBackend(backend: string): Promise<CachedFiles | undefined> {
  if (backend === 'indexeddb') return openIndexedDb();
  if (backend !== 'cache') return undefined;
  if (typeof caches === 'undefined') throw new StorageUnavailableError('the Cache API (caches) is missing');
  // Opening a cache creates it: look first, so reading leaves nothing behind.
  if (!(await caches.has(MODEL_SCOPE))) return { has: () => false, manifest: async () => undefined };
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

/** Deletes these URLs from the weights' scope of `backend`. */
export async function removeFiles(backend: string, urls: string[]): Promise<void> {
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
