import { webllmModelStorage } from '@inkling/webllm';
import * as webllm from '@mlc-ai/web-llm';
import { afterEach, describe, expect, it } from 'vitest';

// webllmModelStorage over WebLLM's real cache functions (hasModelInCache,
// deleteModelAllInfoInCache) in Chromium, for the Cache API and IndexedDB backends. The cache is
// filled here in WebLLM's layout (a tiny generated model: manifest, weight shards, tokenizer,
// chat config, library); WebLLM's own functions reading it the same way is the check that the
// layout is WebLLM's. Nothing is fetched: the model URLs point nowhere.

const SHARD = 4096;
const SHARDS = 3;

const record = (id: string) => ({
  model_id: id,
  model: `https://models.invalid/inkling/${id}`,
  model_lib: `https://models.invalid/libs/${id}.wasm`,
});
const appConfig = { model_list: [record('Tiny-A'), record('Tiny-B'), record('Tiny-C')] };
const base = (id: string) => `https://models.invalid/inkling/${id}/resolve/main/`;

/** The files WebLLM caches for a model, per scope: `shards` of its weight shards. */
function layout(id: string, shards: number) {
  const records = Array.from({ length: SHARDS }, (_, i) => ({
    dataPath: `params_shard_${i}.bin`,
    format: 'raw-shard',
    nbytes: SHARD,
    records: [],
  }));
  const model: Array<[string, 'json' | 'bytes', unknown]> = [
    [`${base(id)}tensor-cache.json`, 'json', { metadata: {}, records }],
    [`${base(id)}tokenizer.json`, 'bytes', new TextEncoder().encode('{}')],
    ...records
      .slice(0, shards)
      .map((r, i): [string, 'bytes', unknown] => [`${base(id)}${r.dataPath}`, 'bytes', new Uint8Array(SHARD).fill(i + 1)]),
  ];
  return {
    'webllm/model': model,
    'webllm/config': [[`${base(id)}mlc-chat-config.json`, 'json', { model_type: 'tiny' }]] as Array<[string, 'json', unknown]>,
    'webllm/wasm': [[`https://models.invalid/libs/${id}.wasm`, 'bytes', new Uint8Array(16)]] as Array<[string, 'bytes', unknown]>,
  };
}

async function fillCacheApi(id: string, shards: number) {
  for (const [scope, files] of Object.entries(layout(id, shards))) {
    const cache = await caches.open(scope);
    for (const [url, kind, data] of files) await cache.put(url, new Response(kind === 'json' ? JSON.stringify(data) : (data as BlobPart)));
  }
}

function openDb(name: string): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(name, 1);
    // WebLLM's own schema: one store, 'urls', keyed by 'url', holding { url, data }.
    request.addEventListener('upgradeneeded', () => request.result.createObjectStore('urls', { keyPath: 'url' }));
    request.addEventListener('success', () => resolve(request.result));
    request.addEventListener('error', () => reject(request.error));
  });
}

async function fillIndexedDb(id: string, shards: number) {
  for (const [scope, files] of Object.entries(layout(id, shards))) {
    const db = await openDb(scope);
    const tx = db.transaction('urls', 'readwrite');
    for (const [url, kind, data] of files) tx.objectStore('urls').put({ url, data: kind === 'json' ? data : (data as Uint8Array).buffer });
    await new Promise((resolve) => (tx.oncomplete = resolve));
    db.close();
  }
}

async function cachedUrls(backend: 'cache' | 'indexeddb'): Promise<string[]> {
  const urls: string[] = [];
  for (const scope of ['webllm/model', 'webllm/config', 'webllm/wasm']) {
    if (backend === 'cache') urls.push(...(await (await caches.open(scope)).keys()).map((r) => r.url));
    else {
      const db = await openDb(scope);
      const keys = await new Promise<IDBValidKey[]>((resolve) => {
        const request = db.transaction('urls').objectStore('urls').getAllKeys();
        request.onsuccess = () => resolve(request.result);
      });
      urls.push(...keys.map(String));
      db.close();
    }
  }
  return urls;
}

// Emptied, not deleted: WebLLM keeps its IndexedDB connections open, so a deleteDatabase would
// stay pending and block every later open.
afterEach(async () => {
  for (const scope of ['webllm/model', 'webllm/config', 'webllm/wasm']) {
    await caches.delete(scope);
    if (!(await indexedDB.databases()).some((d) => d.name === scope)) continue;
    const db = await openDb(scope);
    const tx = db.transaction('urls', 'readwrite');
    tx.objectStore('urls').clear();
    await new Promise((resolve) => (tx.oncomplete = resolve));
    db.close();
  }
});

// First: before any test makes WebLLM's databases.
it('an IndexedDB backend WebLLM never used lists nothing and leaves no database behind', async () => {
  const storage = webllmModelStorage({ appConfig, cache: 'indexeddb', webllm: webllm as never });
  expect((await storage.read()).models).toEqual([]);
  expect((await indexedDB.databases()).map((d) => d.name)).not.toContain('webllm/model');
});

describe.each(['cache', 'indexeddb'] as const)('webllmModelStorage on the %s backend', (backend) => {
  const fill = backend === 'cache' ? fillCacheApi : fillIndexedDb;
  const config = { ...appConfig, cacheBackend: backend, useIndexedDBCache: backend === 'indexeddb' };

  it("lists a whole model and a partial one as WebLLM's hasModelInCache sees them, with their bytes", async () => {
    await fill('Tiny-A', SHARDS);
    await fill('Tiny-B', 1);
    // The real functions read the generated layout as WebLLM's own.
    expect(await webllm.hasModelInCache('Tiny-A', config as never)).toBe(true);
    expect(await webllm.hasModelInCache('Tiny-B', config as never)).toBe(false);
    const storage = webllmModelStorage({ appConfig, cache: backend, webllm: webllm as never });
    const { models, room, persisted } = await storage.read();
    expect(models).toEqual([
      { model: 'Tiny-A', bytes: SHARDS * SHARD, totalBytes: SHARDS * SHARD, complete: true, lastUsed: undefined },
      { model: 'Tiny-B', bytes: SHARD, totalBytes: SHARDS * SHARD, complete: false, lastUsed: undefined },
    ]);
    expect(room!.quota).toBeGreaterThan(0);
    expect(typeof persisted).toBe('boolean');
    expect(typeof (await storage.persist())).toBe('boolean');
  });

  it("deletes one model's every file (weights, tokenizer, config, library) and then the rest", async () => {
    await fill('Tiny-A', SHARDS);
    await fill('Tiny-B', 2);
    const storage = webllmModelStorage({ appConfig, cache: backend, webllm: webllm as never });
    await storage.delete('Tiny-A');
    expect(await webllm.hasModelInCache('Tiny-A', config as never)).toBe(false);
    const left = await cachedUrls(backend);
    expect(left.filter((url) => url.includes('Tiny-A'))).toEqual([]);
    expect(left.filter((url) => url.includes('Tiny-B')).length).toBeGreaterThan(0);
    expect((await storage.read()).models.map((m) => m.model)).toEqual(['Tiny-B']);
    await storage.deleteAll();
    expect((await storage.read()).models).toEqual([]);
    expect((await cachedUrls(backend)).filter((url) => url.includes('Tiny-B/resolve/main/params'))).toEqual([]);
  });
});
