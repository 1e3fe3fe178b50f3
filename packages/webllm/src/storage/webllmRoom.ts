import {
  ensureStorageRoom,
  type LockManagerLike,
  type StorageManagerLike,
  storageFullError,
  withModelLock,
} from '@inkling/scheduler/storage';
import { LoadCancelledError, StorageUnavailableError } from '@inkling/scheduler';
import { loadCancelled } from '../errors.js';
import { findModel } from '../modelCatalogue.js';
import type { CacheBackend, WebLLMAppConfig, WebLLMModelRecord } from '../types.js';
import {
  type CachedFiles,
  type CachedWeights,
  cachedWeights,
  MANIFESTS,
  manifestBytes,
  modelBaseUrl,
  openBackend,
  removeFiles,
  type WeightsManifest,
} from './webllmCachedFiles.js';

/** The options of `webllmEngines` that concern the model's place on disk. */
export interface WebLLMStorageOptions {
  /**
   * The model's weights in bytes, from your catalogue: the free-space check
   * before the download then fetches no manifest. Default: the sum of the
   * weights manifest's `nbytes` (`tensor-cache.json`, or `ndarray-cache.json`
   * before WebLLM 0.2.80), fetched from the model's URL before the download.
   */
  sizeBytes?: number;
  /**
   * The storage the free-space check asks before a model not yet whole in
   * WebLLM's cache downloads: its `estimate()`, then (Chrome's estimate
   * overstates the room) an empty OPFS file from its `getDirectory()` sized
   * to the missing weights and dropped unwritten. A model that does not fit
   * fails with `NotEnoughStorageError` (both figures, what to free) before
   * any weight is fetched; a write the browser refuses mid-download fails
   * with it too. Default: `navigator.storage`, looked up when loading.
   */
  storage?: StorageManagerLike;
}

/** The Web Lock a WebLLM model's download, load and delete take, in every tab of the origin. */
export const webllmLockName = (model: string): string => `inkling-webllm-model:${model}`;

/** What `withModelRoom` needs. */
export interface ModelRoomRequest {
  model: string;
  appConfig: WebLLMAppConfig | undefined;
  cache: CacheBackend | undefined;
  sizeBytes: number | undefined;
  storage: StorageManagerLike | undefined;
  locks: LockManagerLike | undefined;
  fetch: ((input: string, init: RequestInit) => Promise<Response>) | undefined;
  signal: AbortSignal | undefined;
  /** Reads a backend's cached URLs. Default: the Cache API or IndexedDB as WebLLM lays them out. */
  openFiles?: (backend: CacheBackend) => Promise<CachedFiles | undefined>;
}

/**
 * Runs `load` (the worker's download and load) holding the model's Web Lock,
 * after checking that the model fits. A model whose weights are all in
 * WebLLM's cache loads under a shared lock (many engines and tabs at once;
 * only a delete is kept out). Otherwise the lock is exclusive: one tab or
 * engine downloads while the others wait, then find the model whole and load
 * it from the cache; before the first weight is fetched, the weights still
 * missing are checked with `ensureStorageRoom` (the estimate, then the
 * browser asked to reserve them), and a model that does not fit rejects with
 * `NotEnoughStorageError`, as does a write the browser refuses mid-download.
 *
 * The page reads WebLLM's cache itself (Cache API, IndexedDB). Where it
 * cannot tell what is stored (the `'opfs'` and `'cross-origin'` backends, a
 * page without the Cache API, a prebuilt model outside `modelCatalogue`
 * without `appConfig`, whose URL only the worker knows), it checks no room,
 * since the model may be whole already; the lock is still taken, and a model
 * whose state is unknown is loaded exclusively.
 *
 * @example
 * const engine = await withModelRoom({ model, appConfig, cache, sizeBytes, storage, locks, fetch, signal }, () => loadEngine(settings));
 */
export async function withModelRoom<T>(request: ModelRoomRequest, load: () => Promise<T>): Promise<T> {
  const { model, signal } = request;
  const record = findRecord(request);
  const backend: CacheBackend =
    request.cache ?? request.appConfig?.cacheBackend ?? (request.appConfig?.useIndexedDBCache === true ? 'indexeddb' : 'cache');
  const look = async (): Promise<{ files: CachedFiles | undefined; weights: CachedWeights | undefined }> => {
    const files = await (request.openFiles ?? openBackend)(backend).catch((error: unknown) => {
      // No storage here (a private window): WebLLM downloads without a cache; nothing to check against.
      if (error instanceof StorageUnavailableError) return undefined;
      throw error;
    });
    return { files, weights: files && record ? await cachedWeights(files, record) : undefined };
  };
  const name = webllmLockName(model);
  try {
    const stored = await withModelLock(request.locks, name, { mode: 'shared', signal }, async () => {
      const { weights } = await look();
      return weights?.complete ? { value: await load() } : undefined;
    });
    if (stored) return stored.value;
    return await withModelLock(request.locks, name, { signal }, async () => {
      const state = await look();
      // Where the page cannot tell what is stored, it refuses nothing: the model may be whole already.
      const missing = state.files && record && !state.weights?.complete ? await checkRoom(request, record, state) : undefined;
      try {
        return await load();
      } catch (error) {
        // The browser refused a weight mid-download: that is the answer, in the words of the room check.
        if (isQuotaError(error)) throw await refusedMidDownload(request, backend, record, missing, error);
        throw error;
      }
    });
  } catch (error) {
    if (signal?.aborted && !(error instanceof LoadCancelledError)) throw loadCancelled(model, signal.reason);
    throw error;
  }
}

/** The model's record: from `appConfig`, or for a catalogue model without one, WebLLM's prebuilt URL. */
function findRecord(request: ModelRoomRequest): Pick<WebLLMModelRecord, 'model'> | undefined {
  if (request.appConfig) return request.appConfig.model_list.find((r) => r.model_id === request.model);
  // Every catalogue model is WebLLM's mlc-ai repository of its id (the embedding builds without their "-b4").
  return findModel(request.model) ? { model: `https://huggingface.co/mlc-ai/${request.model.replace(/-b\d+$/, '')}` } : undefined;
}

/**
 * Rejects with `NotEnoughStorageError` when the weights still missing do not
 * fit (`ensureStorageRoom`: the estimate, then the browser asked to reserve
 * them); resolves with those bytes, `undefined` where they are not known.
 */
async function checkRoom(
  request: ModelRoomRequest,
  record: Pick<WebLLMModelRecord, 'model'> | undefined,
  { files, weights }: { files: CachedFiles | undefined; weights: CachedWeights | undefined },
): Promise<number | undefined> {
  const { storage } = request;
  // Neither figures nor a file to size: nothing to ask, and no manifest to fetch for it.
  if (typeof storage?.estimate !== 'function' && typeof storage?.getDirectory !== 'function') return undefined;
  const have = weights?.bytes ?? 0;
  let missing: number | undefined;
  if (request.sizeBytes !== undefined) missing = request.sizeBytes - have;
  else if (weights?.totalBytes !== undefined) missing = weights.totalBytes - have;
  else if (record) {
    const base = modelBaseUrl(record.model);
    const manifest = await fetchManifest(request, base);
    if (manifest) missing = manifestBytes(manifest, base) - manifestBytes(manifest, base, (url) => files?.has(url) ?? false);
  }
  if (missing !== undefined) await ensureStorageRoom(storage, request.model, missing);
  return missing;
}

/**
 * The `NotEnoughStorageError` for a weight the browser refused to store: the
 * shards this model has in the cache are deleted (so the room they took goes
 * back, and nothing half-downloaded stays), and the error names the whole
 * model's size and the room the browser really gives.
 */
async function refusedMidDownload(
  request: ModelRoomRequest,
  backend: CacheBackend,
  record: Pick<WebLLMModelRecord, 'model'> | undefined,
  missing: number | undefined,
  error: unknown,
): Promise<Error> {
  let need = missing ?? request.sizeBytes ?? Number.NaN;
  const files = await (request.openFiles ?? openBackend)(backend).catch(() => undefined);
  const weights = files && record ? await cachedWeights(files, record) : undefined;
  if (record && files && weights?.manifestUrl !== undefined) {
    const base = modelBaseUrl(record.model);
    const manifest = await files.manifest(weights.manifestUrl);
    need = weights.totalBytes ?? need;
    const shards = (manifest?.records ?? []).map((r) => new URL(r.dataPath, base).href);
    await removeFiles(backend, [...shards, weights.manifestUrl]).catch(() => {});
  }
  return storageFullError(request.storage, request.model, need, error);
}

/** Whether a failed load was the browser refusing a write for want of room (a `QuotaExceededError`, however deep in the causes). */
function isQuotaError(error: unknown): boolean {
  for (let at = error, depth = 0; at && depth < 4; at = (at as { cause?: unknown }).cause, depth += 1) {
    const { name, message } = at as { name?: unknown; message?: unknown };
    if (
      name === 'QuotaExceededError' ||
      (typeof message === 'string' && /QuotaExceededError|quota (has been |was )?exceeded/i.test(message))
    )
      return true;
  }
  return false;
}

/** The weights manifest from the model's URL (the first name the server has); `undefined` when none answers. */
async function fetchManifest(request: ModelRoomRequest, base: string): Promise<WeightsManifest | undefined> {
  const fetcher = request.fetch ?? globalThis.fetch;
  if (typeof fetcher !== 'function') return undefined;
  for (const name of MANIFESTS) {
    try {
      const response = await fetcher(new URL(name, base).href, request.signal ? { signal: request.signal } : {});
      if (!response.ok) {
        await response.body?.cancel().catch(() => {});
        continue;
      }
      const manifest = (await response.json()) as WeightsManifest;
      if (Array.isArray(manifest?.records)) return manifest;
    } catch (error) {
      if (request.signal?.aborted) throw error;
      // Offline, CORS, not JSON: the download will say what is wrong; the check is skipped.
      return undefined;
    }
  }
  return undefined;
}
