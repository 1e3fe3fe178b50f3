import { EnginePool, InvalidOptionError, ModelInUseError, NotEnoughStorageError } from '@inkling/scheduler';
import { type StorageManagerLike } from '@inkling/scheduler/storage';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { deleteModel, LoadCancelledError, modelCatalogue, webllmEngines, webllmModelStorage } from '../src/index.js';
import type { CachedFiles } from '../src/storage/webllmCachedFiles.js';
import { type ModelRoomRequest, withModelRoom } from '../src/storage/webllmRoom.js';
import { appConfig, fakeWebLLM, useVirtualTime } from './helpers.js';

// The free-space check and the model lock before WebLLM's worker downloads. Node has no Cache
// API, Web Locks or navigator.storage: the estimate is a fake, the cache a fake of what the page
// reads, and the lock the in-page fallback (real Web Locks, the real cache and a server counting
// requests: tests/wllama/test/webllmRoom.test.ts in Chromium).

const MB = 1_000_000;
const BASE = 'http://127.0.0.1:8000/models/Tiny-q4f32_1/resolve/main/';
const manifest = { records: [0, 1, 2, 3].map((i) => ({ dataPath: `params_shard_${i}.bin`, nbytes: 100 * MB })) };

/** navigator.storage saying `free` bytes are left, counting its calls. */
function storageWith(free: number) {
  const calls = { estimate: 0 };
  const storage: StorageManagerLike = {
    estimate: async () => {
      calls.estimate += 1;
      return { usage: 1000 * MB - free, quota: 1000 * MB };
    },
  };
  return { storage, calls };
}

/** WebLLM's cache holding the manifest and the first `shards` shards (or nothing, with `shards: -1`). */
function cacheWith(shards: number): () => Promise<CachedFiles> {
  const urls = new Set(shards < 0 ? [] : [`${BASE}tensor-cache.json`, ...manifest.records.slice(0, shards).map((r) => BASE + r.dataPath)]);
  return async () => ({ has: (url) => urls.has(url), manifest: async (url) => (urls.has(url) ? manifest : undefined) });
}

/** A fetch serving the manifest at BASE, recording every URL asked. */
function manifestServer() {
  const asked: string[] = [];
  const fetch = async (url: string) => {
    asked.push(url);
    return url === `${BASE}tensor-cache.json` ? Response.json(manifest) : new Response('not found', { status: 404 });
  };
  return { fetch, asked };
}

/** A load that succeeds at once. */
const loaded = async () => 'loaded';

/** A fetch with no network. */
const offline = async (): Promise<Response> => {
  throw new TypeError('Failed to fetch');
};

const request = (extra: Partial<ModelRoomRequest>): ModelRoomRequest => ({
  model: 'Tiny-q4f32_1',
  appConfig,
  cache: undefined,
  sizeBytes: undefined,
  storage: undefined,
  locks: undefined,
  fetch: undefined,
  signal: undefined,
  ...extra,
});

describe('webllmEngines: the room check before the worker downloads', () => {
  beforeEach(() => {
    useVirtualTime();
    // A Cache API without WebLLM's cache in it: nothing of the model is stored.
    vi.stubGlobal('caches', { has: async () => false });
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('a model larger than the free space fails the load before any worker starts, naming both figures', async () => {
    const { storage } = storageWith(150 * MB);
    const { createEngine, workers } = fakeWebLLM({}, { storage, sizeBytes: 400 * MB });
    const pool = new EnginePool({ createEngine, size: 1 });
    await pool.load().catch(() => {});
    const { error } = pool.getSnapshot();
    expect(error).toBeInstanceOf(NotEnoughStorageError);
    expect(error).toMatchObject({
      model: 'Tiny-q4f32_1',
      needBytes: 400 * MB,
      freeBytes: 150 * MB,
      shortBytes: 250 * MB,
      kind: 'storage-full',
    });
    expect(error?.message).toMatch(/needs 400 MB of storage but this site has 150 MB free\. Free at least 250 MB \(delete stored models/);
    expect(workers).toHaveLength(0);
  });

  it('without sizeBytes, the size is the manifest’s nbytes: one manifest request, no weight, no worker', async () => {
    const { storage } = storageWith(150 * MB);
    const server = manifestServer();
    vi.stubGlobal('fetch', server.fetch);
    const { createEngine, workers } = fakeWebLLM({}, { storage });
    await expect(createEngine(0, () => {})).rejects.toMatchObject({ name: 'NotEnoughStorageError', needBytes: 400 * MB });
    expect(server.asked).toEqual([`${BASE}tensor-cache.json`]);
    expect(workers).toHaveLength(0);
  });

  it('a model that fits loads as before', async () => {
    const { storage, calls } = storageWith(900 * MB);
    const { createEngine, workers } = fakeWebLLM({}, { storage, sizeBytes: 400 * MB });
    const pool = new EnginePool({ createEngine, size: 1 });
    await pool.load();
    expect(pool.getSnapshot().phase).toBe('ready');
    expect(calls.estimate).toBe(1);
    expect(workers[0]?.mlc?.reloads).toHaveLength(1);
  });

  it('checks sizeBytes', () => {
    for (const sizeBytes of [0, -1, 1.5, Number.NaN, '400'])
      expect(() => webllmEngines({ model: 'Tiny-q4f32_1', sizeBytes } as never)).toThrow(InvalidOptionError);
  });
});

describe('withModelRoom', () => {
  it('counts only the shards not yet in the cache (a cut download resumes shard by shard)', async () => {
    const { storage } = storageWith(150 * MB);
    const load = vi.fn(async () => 'loaded');
    // Two of four shards there: 200 MB missing, 150 free.
    await expect(withModelRoom(request({ storage, openFiles: cacheWith(2) }), load)).rejects.toMatchObject({
      needBytes: 200 * MB,
      freeBytes: 150 * MB,
    });
    // Three there: 100 MB missing fits.
    await expect(withModelRoom(request({ storage, openFiles: cacheWith(3) }), load)).resolves.toBe('loaded');
    // With sizeBytes, the cached shards are still subtracted.
    await expect(withModelRoom(request({ storage, sizeBytes: 400 * MB, openFiles: cacheWith(3) }), load)).resolves.toBe('loaded');
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('a model whole in the cache loads without reading the estimate or fetching anything', async () => {
    const { storage, calls } = storageWith(0);
    const server = manifestServer();
    const result = await withModelRoom(request({ storage, fetch: server.fetch, openFiles: cacheWith(4) }), async () => 'loaded');
    expect(result).toBe('loaded');
    expect(calls.estimate).toBe(0);
    expect(server.asked).toEqual([]);
  });

  it('a manifest that cannot be fetched skips the check after one request (offline: the download will say what is wrong)', async () => {
    const { storage } = storageWith(1);
    const fetch = vi.fn(offline);
    await expect(withModelRoom(request({ storage, fetch, openFiles: cacheWith(-1) }), async () => 'loaded')).resolves.toBe('loaded');
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it('where the page cannot tell what is stored (no record, a backend only WebLLM reads), nothing is refused: the model may be whole', async () => {
    const { storage, calls } = storageWith(0);
    const unknown = request({ model: 'Some-Prebuilt-Model', appConfig: undefined, storage, sizeBytes: 400 * MB, openFiles: cacheWith(-1) });
    await expect(withModelRoom(unknown, loaded)).resolves.toBe('loaded');
    await expect(withModelRoom(request({ storage, sizeBytes: 400 * MB, cache: 'opfs' }), loaded)).resolves.toBe('loaded');
    expect(calls.estimate).toBe(0);
  });

  it('where the browser has no estimate, nothing is refused', async () => {
    await expect(withModelRoom(request({ storage: {}, sizeBytes: 10 ** 15 }), async () => 'loaded')).resolves.toBe('loaded');
  });

  it('two loads of a model not yet stored take turns: the second starts after the first ended, and finds it whole', async () => {
    let stored = -1;
    const openFiles = async () => cacheWith(stored)();
    const order: string[] = [];
    const first = withModelRoom(request({ openFiles }), async () => {
      order.push('first starts');
      await new Promise((resolve) => setTimeout(resolve, 20));
      stored = 4;
      order.push('first ends');
    });
    const second = withModelRoom(request({ openFiles }), async () => {
      order.push(`second starts with ${stored} shards`);
    });
    await Promise.all([first, second]);
    expect(order).toEqual(['first starts', 'first ends', 'second starts with 4 shards']);
  });

  it('a load waiting for the lock is cancelled by its signal with LoadCancelledError', async () => {
    let release!: () => void;
    const first = withModelRoom(request({}), () => new Promise<void>((resolve) => (release = resolve)));
    const controller = new AbortController();
    const second = withModelRoom(request({ signal: controller.signal }), async () => 'never');
    controller.abort(new Error('unloaded'));
    await expect(second).rejects.toBeInstanceOf(LoadCancelledError);
    release();
    await first;
  });

  it('every catalogue model without appConfig is looked up at WebLLM’s prebuilt URL', async () => {
    const webllm = await import('@mlc-ai/web-llm');
    for (const { id } of modelCatalogue) {
      const prebuilt = webllm.prebuiltAppConfig.model_list.find((r) => r.model_id === id)!;
      const server = manifestServer();
      await withModelRoom(
        request({
          model: id,
          appConfig: undefined,
          storage: storageWith(1).storage,
          fetch: server.fetch,
          openFiles: async () => ({ has: () => false, manifest: async () => undefined }),
        }),
        async () => 0,
      );
      expect(server.asked[0]).toBe(`${prebuilt.model}/resolve/main/tensor-cache.json`);
    }
  });
});

describe('webllmModelStorage: a model in use', () => {
  it('is not deleted while a load holds it (ModelInUseError, WebLLM’s delete not called); deleted once the load ended', async () => {
    const deleted: string[] = [];
    const webllm = {
      prebuiltAppConfig: { model_list: [] },
      hasModelInCache: async () => false,
      deleteModelAllInfoInCache: async (id: string) => void deleted.push(id),
      MLCEngine: Object,
    } as never;
    const storage = webllmModelStorage({ appConfig, cache: 'opfs', webllm });
    let release!: () => void;
    const loading = withModelRoom(request({}), () => new Promise<void>((resolve) => (release = resolve)));
    await new Promise((resolve) => setTimeout(resolve, 0));
    await expect(storage.delete('Tiny-q4f32_1')).rejects.toBeInstanceOf(ModelInUseError);
    await expect(deleteModel('Tiny-q4f32_1', { appConfig, webllm })).rejects.toBeInstanceOf(ModelInUseError);
    expect(deleted).toEqual([]);
    // Another model is not held.
    await storage.delete('Tiny-q4f16_1');
    release();
    await loading;
    await storage.delete('Tiny-q4f32_1');
    expect(deleted).toEqual(['Tiny-q4f16_1', 'Tiny-q4f32_1']);
  });
});
