import { ModelInUseError, NotEnoughStorageError } from '@inkling/scheduler';
import { type WebLLMAppConfig, webllmEngines, webllmModelStorage } from '@inkling/webllm';
import * as webllm from '@mlc-ai/web-llm';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { commands } from 'vitest/browser';
import type { PageResult } from '../pages/load.js';
import { WEBLLM_LAYOUT } from './testModels.js';
import { channelWorkers } from './webllmStandIn.js';

// WebLLM's room check, lock and in-use guard in Chromium, against the real Cache API, real Web
// Locks and a local server that counts every request (modelServer.ts serves a WebLLM weights
// folder: tensor-cache.json and its shards). WebLLM itself needs WebGPU, which this Chromium
// lacks, so the engine worker is the real hostWebLLM over a MessageChannel, driving an MLCEngine
// stand-in that downloads as WebLLM does (manifest, then each shard missing from the
// 'webllm/model' cache); WebLLM's real hasModelInCache reading what it wrote is the check that
// the layout is WebLLM's.

interface ServedRequest {
  method: string;
  status: number;
  file: string;
}

const { shards, shardBytes, shardPrefix } = WEBLLM_LAYOUT;
const TOTAL = shards * shardBytes;
let counter = 0;

/** A WebLLM model of its own (own cache entries, own lock), served at /__models/<key>/resolve/main/. */
async function served() {
  const key = `w${Date.now().toString(36)}${(counter += 1)}`;
  await fetch(`/__models/config?key=${key}&ranges=1`);
  const id = `Tiny-${key}`;
  const base = `${location.origin}/__models/${key}/resolve/main/`;
  const appConfig: WebLLMAppConfig = {
    model_list: [{ model_id: id, model: `${location.origin}/__models/${key}`, model_lib: `${base}lib.wasm` }],
  };
  const log = async (): Promise<string[]> =>
    ((await (await fetch(`/__models/log?key=${key}`)).json()) as ServedRequest[]).map((r) => `${r.method} ${r.file} ${r.status}`);
  return { id, base, appConfig, log };
}

/** navigator.storage with `free` bytes left, counting the estimates read. */
function room(free: number) {
  const calls = { estimate: 0 };
  return {
    calls,
    storage: {
      estimate: async () => {
        calls.estimate += 1;
        return { usage: 0, quota: free };
      },
    },
  };
}

/** Puts the manifest and the first `count` shards into WebLLM's cache, fetched from the server. */
async function storeShards(base: string, count: number) {
  const cache = await caches.open('webllm/model');
  await cache.put(`${base}tensor-cache.json`, await fetch(`${base}tensor-cache.json`));
  for (let i = 0; i < count; i += 1) await cache.put(`${base}${shardPrefix}${i}.bin`, await fetch(`${base}${shardPrefix}${i}.bin`));
}

afterAll(async () => {
  await caches.delete('webllm/model');
});

it("the MLCEngine stand-in has only what WebLLM's MLCEngine has", () => {
  const real = webllm.MLCEngine.prototype as unknown as Record<string, unknown>;
  for (const method of ['reload', 'unload', 'interruptGenerate']) expect([method, typeof real[method]]).toEqual([method, 'function']);
  const fields = new webllm.MLCEngine() as unknown as Record<string, unknown>;
  for (const field of ['chat', 'embeddings']) expect([field, typeof fields[field]]).toEqual([field, 'object']);
});

describe('WebLLM: room checked before the first weight', () => {
  it('a model larger than the free space is refused before any request reaches the server (sizeBytes given)', async () => {
    const model = await served();
    const workers = channelWorkers();
    const { storage } = room(TOTAL - 1);
    const load = webllmEngines({
      model: model.id,
      appConfig: model.appConfig,
      gpu: null,
      storage,
      sizeBytes: TOTAL,
      worker: workers.factory,
    })(0, () => {});
    await expect(load).rejects.toBeInstanceOf(NotEnoughStorageError);
    await expect(load).rejects.toMatchObject({ needBytes: TOTAL, freeBytes: TOTAL - 1, shortBytes: 1 });
    expect(await model.log()).toEqual([]);
    expect(workers.made).toHaveLength(0);
  });

  it('without sizeBytes, the manifest is the only request: no weight is fetched, no worker starts', async () => {
    const model = await served();
    const workers = channelWorkers();
    const load = webllmEngines({
      model: model.id,
      appConfig: model.appConfig,
      gpu: null,
      storage: room(1000).storage,
      worker: workers.factory,
    })(0, () => {});
    await expect(load).rejects.toMatchObject({ name: 'NotEnoughStorageError', needBytes: TOTAL, freeBytes: 1000 });
    expect(await model.log()).toEqual(['GET tensor-cache.json 200']);
    expect(workers.made).toHaveLength(0);
  });

  it('a partial download in the real cache counts only its missing shards, then the load fetches only those', async () => {
    const model = await served();
    await storeShards(model.base, 1);
    const config = { ...model.appConfig, cacheBackend: 'cache' as const };
    expect(await webllm.hasModelInCache(model.id, config as never)).toBe(false);
    expect((await webllmModelStorage({ appConfig: model.appConfig, webllm: webllm as never }).read()).models).toEqual([
      { model: model.id, bytes: shardBytes, totalBytes: TOTAL, complete: false, lastUsed: undefined },
    ]);
    const before = (await model.log()).length;
    const workers = channelWorkers();
    const engines = (free: number) =>
      webllmEngines({ model: model.id, appConfig: model.appConfig, gpu: null, storage: room(free).storage, worker: workers.factory });
    // Two shards missing: one byte short of them is refused, with no request (the manifest is cached).
    await expect(engines(2 * shardBytes - 1)(0, () => {})).rejects.toMatchObject({ needBytes: 2 * shardBytes });
    expect(await model.log()).toHaveLength(before);
    const engine = await engines(2 * shardBytes)(0, () => {});
    expect((await model.log()).slice(before)).toEqual([`GET ${shardPrefix}1.bin 200`, `GET ${shardPrefix}2.bin 200`]);
    expect(await webllm.hasModelInCache(model.id, config as never)).toBe(true);
    await engine.unload?.();
  });

  it('a model whole in the cache loads without reading the estimate', async () => {
    const model = await served();
    await storeShards(model.base, shards);
    const { storage, calls } = room(0);
    const before = (await model.log()).length;
    const engine = await webllmEngines({
      model: model.id,
      appConfig: model.appConfig,
      gpu: null,
      storage,
      worker: channelWorkers().factory,
    })(0, () => {});
    expect(calls.estimate).toBe(0);
    expect(await model.log()).toHaveLength(before);
    await engine.unload?.();
  });
});

/** Sets the origin's real quota to its usage now plus `bytes` bytes, as a private window or a full disk does. */
async function realRoom(bytes: number): Promise<void> {
  const { usage = 0 } = await navigator.storage.estimate();
  await commands.storageQuota(usage + bytes);
  // Chrome still reports gigabytes free: the estimate alone cannot see the limit.
  const after = await navigator.storage.estimate();
  expect((after.quota ?? 0) - (after.usage ?? 0)).toBeGreaterThan(1000 * TOTAL);
}

describe("WebLLM: a real quota that Chrome's estimate() does not report", () => {
  afterEach(() => commands.storageQuota(null));

  it('a model larger than the real room is refused before any weight is fetched, with figures a person can act on', async () => {
    const model = await served();
    const workers = channelWorkers();
    const real = Math.floor(TOTAL / 3);
    await realRoom(real);
    const error = await webllmEngines({ model: model.id, appConfig: model.appConfig, gpu: null, worker: workers.factory })(
      0,
      () => {},
    ).then(
      () => undefined,
      (e: unknown) => e as NotEnoughStorageError,
    );
    expect(error).toBeInstanceOf(NotEnoughStorageError);
    expect(error).toMatchObject({ needBytes: TOTAL });
    // The room the browser really gives (to 1/1024 of the need), not the estimate's.
    expect(error!.freeBytes).toBeLessThanOrEqual(real);
    expect(error!.freeBytes).toBeGreaterThan(real - TOTAL / 50);
    expect(error!.shortBytes).toBe(TOTAL - error!.freeBytes);
    expect(error!.message).not.toMatch(/\s-\d/);
    expect(error!.message).toMatch(/needs 1 MB of storage but this site has 1 MB free\. Free at least 1 MB/);
    expect(await model.log()).toEqual(['GET tensor-cache.json 200']);
    expect(workers.made).toHaveLength(0);
  });

  it('a write the browser refuses mid-download is a NotEnoughStorageError naming the whole model, and no shard is left', async () => {
    const model = await served();
    // The catalogue's size is wrong (too small), so the check before lets the download start.
    await realRoom(Math.floor(TOTAL / 2));
    const load = webllmEngines({
      model: model.id,
      appConfig: model.appConfig,
      gpu: null,
      sizeBytes: 1000,
      worker: channelWorkers().factory,
    })(0, () => {});
    const error = await load.then(
      () => undefined,
      (e: unknown) => e as NotEnoughStorageError,
    );
    expect(error).toBeInstanceOf(NotEnoughStorageError);
    expect(error).toMatchObject({ needBytes: TOTAL });
    expect(error!.freeBytes).toBeLessThan(TOTAL);
    expect(error!.message).not.toMatch(/\s-\d/);
    expect(error!.message).toMatch(/Nothing was stored/);
    expect((await model.log()).filter((line) => line.includes(shardPrefix)).length).toBeGreaterThan(0);
    const cache = await caches.open('webllm/model');
    expect((await cache.keys()).filter((r) => r.url.startsWith(model.base))).toEqual([]);
  });
});

describe('WebLLM: one download per model, and no delete while it loads', () => {
  it('two engines loading a model not yet stored download it once (a Web Lock); a delete meanwhile is refused', async () => {
    const model = await served();
    const storage = webllmModelStorage({ appConfig: model.appConfig, webllm: webllm as never });
    const workers = channelWorkers();
    const createEngine = webllmEngines({ model: model.id, appConfig: model.appConfig, gpu: null, worker: workers.factory });
    const loading = Promise.all([createEngine(0, () => {}), createEngine(1, () => {})]);
    // While one engine holds the lock, the other waits and the model cannot be deleted.
    await expect
      .poll(async () => (await navigator.locks.query()).held?.some((l) => l.name === `inkling-webllm-model:${model.id}`))
      .toBe(true);
    await expect(storage.delete(model.id)).rejects.toBeInstanceOf(ModelInUseError);
    const engines = await loading;
    expect(workers.made).toHaveLength(2);
    // The room check's manifest, then WebLLM's download (manifest and each shard) once: the second engine found it whole.
    expect(await model.log()).toEqual([
      'GET tensor-cache.json 200',
      'GET tensor-cache.json 200',
      ...Array.from({ length: shards }, (_, i) => `GET ${shardPrefix}${i}.bin 200`),
    ]);
    // Loaded: the engines run from memory, so the copy on disk may go.
    await storage.delete(model.id);
    expect(await webllm.hasModelInCache(model.id, { ...model.appConfig, cacheBackend: 'cache' } as never)).toBe(false);
    expect((await storage.read()).models).toEqual([]);
    await Promise.all(engines.map((e) => e.unload?.()));
  });
});

describe('WebLLM: two tabs', () => {
  it('two tabs of one browser loading a model not yet stored download it once (the Web Lock spans tabs), and both load', async () => {
    const model = await served();
    const tab = { page: 'webllm' as const, model: model.id, url: model.appConfig.model_list[0]!.model, reloads: 0 };
    const results = (await commands.modelPages([tab, tab])) as PageResult[][];
    expect(results.flat().map((r) => [r.ok, r.error?.message])).toEqual([
      [true, undefined],
      [true, undefined],
    ]);
    // One room check's manifest and one download; the tab that waited found the model whole.
    expect(await model.log()).toEqual([
      'GET tensor-cache.json 200',
      'GET tensor-cache.json 200',
      ...Array.from({ length: shards }, (_, i) => `GET ${shardPrefix}${i}.bin 200`),
    ]);
    expect(await webllm.hasModelInCache(model.id, { ...model.appConfig, cacheBackend: 'cache' } as never)).toBe(true);
  });
});
