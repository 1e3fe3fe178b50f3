import { type ChatCompletionChunk, EnginePool, ModelInUseError, NotEnoughStorageError, StorageUnavailableError } from '@inkling/scheduler';
import { ModelUnreadableError, type WllamaEngine, wllamaEngines, wllamaModelStorage } from '@inkling/wllama';
import { describe, expect, it } from 'vitest';
import { commands } from 'vitest/browser';
import type { PageResult } from '../pages/load.js';
import { testEngines, wasmUrl } from './engines.js';
import { NEW_VERSION_AT, TEST_MODELS } from './testModels.js';

// The model store against a local server that counts the bytes it sends, can cut a download
// and can refuse ranges (modelServer.ts). A reload is a real one: the `modelPages` command opens
// tabs of their own in the test's browser context (same origin, same OPFS, same Web Locks), each
// loading the model in pages/load.html, and reloads them with page.reload().

interface ServedRequest {
  method: string;
  range: string | undefined;
  status: number;
  bytesSent: number;
}

const FILE = TEST_MODELS.chat.file;
let counter = 0;

interface ServeConfig {
  ranges: boolean;
  cut?: number;
  /** `false`: the server answers ranges with 206 whatever `If-Range` says. Default `true`. */
  ifRange?: boolean;
  /** `2`: the file's second version (NEW_VERSION_AT changed). Default `1`. */
  version?: number;
}

/** A model URL of its own (so its own stored copy), served as `config` says; `configure` changes that (and empties the log). */
async function served(config: ServeConfig) {
  const key = `k${Date.now().toString(36)}${(counter += 1)}`;
  const configure = async ({ ranges, cut, ifRange = true, version = 1 }: ServeConfig) => {
    await fetch(
      `/__models/config?key=${key}&ranges=${ranges ? 1 : 0}&ifrange=${ifRange ? 1 : 0}&version=${version}${cut === undefined ? '' : `&cut=${cut}`}`,
    );
  };
  await configure(config);
  const url = new URL(`/__models/${key}/${FILE}`, location.href).href;
  const log = async (): Promise<ServedRequest[]> => (await fetch(`/__models/log?key=${key}`)).json();
  return { url, log, configure, engines: (options = {}) => wllamaEngines({ model: url, wasmUrl, seed: 7, ...options }) };
}

const SIZE = fetch(`/${FILE}`, { method: 'HEAD' }).then((r) => Number(r.headers.get('content-length')));

async function answer(engine: WllamaEngine, content = 'Write a short note about the weather.'): Promise<string> {
  let text = '';
  const stream = await engine.chat.completions.create({ messages: [{ role: 'user', content }], max_tokens: 4, stream: true });
  for await (const chunk of stream as AsyncIterable<ChatCompletionChunk>) text += chunk.choices[0]?.delta.content ?? '';
  return text;
}

async function stored(url: string) {
  return (await wllamaModelStorage().read()).models.find((m) => m.model === url);
}

/** A stored model's OPFS folder (the store's layout: a folder per model, parts named by offset). */
async function folder(url: string): Promise<FileSystemDirectoryHandle> {
  const root = await (await navigator.storage.getDirectory()).getDirectoryHandle('inkling-wllama-models');
  for await (const [, dir] of (root as unknown as { entries(): AsyncIterable<[string, FileSystemDirectoryHandle]> }).entries()) {
    const meta = await (await (await dir.getFileHandle('meta.json')).getFile()).text().catch(() => '{}');
    if (JSON.parse(meta).url === url) return dir;
  }
  throw new Error(`no stored folder for ${url}`);
}

/** The OPFS file of a stored model's first part. */
const firstPart = async (url: string): Promise<FileSystemFileHandle> => (await folder(url)).getFileHandle('part-000000000000000');

/** A stored model's bytes: its parts joined in order. */
async function storedBytes(url: string): Promise<Uint8Array> {
  const parts: [string, File][] = [];
  for await (const [name, handle] of ((await folder(url)) as unknown as { entries(): AsyncIterable<[string, FileSystemHandle]> }).entries())
    if (name.startsWith('part-')) parts.push([name, await (handle as FileSystemFileHandle).getFile()]);
  parts.sort(([a], [b]) => a.localeCompare(b));
  return new Uint8Array(await new Blob(parts.map(([, file]) => file)).arrayBuffer());
}

async function rewrite(handle: FileSystemFileHandle, change: (w: FileSystemWritableFileStream) => Promise<void>) {
  const writable = await handle.createWritable({ keepExistingData: true });
  await change(writable);
  await writable.close();
}

/** The offset a range request resumed from (`bytes=N-`). */
const rangeStart = (range: string | undefined) => Number(/^bytes=(\d+)-$/.exec(range ?? '')?.[1]);

describe('a download cut at 40%, then the page reloaded', () => {
  it('with ranges, the reloaded page fetches only the rest (counted at the server), loads and answers', async () => {
    const size = await SIZE;
    const model = await served({ ranges: true, cut: 0.4 });
    const [[cut, reloaded]] = (await commands.modelPages([{ model: model.url, reloads: 1 }])) as [[PageResult, PageResult]];
    expect(cut).toMatchObject({ ok: false, found: null, error: { name: 'ModelFetchError' } });
    // What the reloaded page found on disk: the cut download, marked partial, its size known.
    const partial = reloaded.found!;
    expect(partial).toMatchObject({ complete: false, totalBytes: size });
    expect(partial.bytes).toBeGreaterThan(size * 0.2);
    expect(partial.bytes).toBeLessThanOrEqual(Math.floor(size * 0.4));
    expect(reloaded.error?.message).toBeUndefined();
    expect(reloaded).toMatchObject({ ok: true });
    expect(reloaded.text!.length).toBeGreaterThan(0);
    const log = await model.log();
    // A HEAD first (no catalogue size: the room check asks it), none on the resume (the stored marker knows the size).
    expect(log.map((r) => [r.method, r.status])).toEqual([
      ['HEAD', 200],
      ['GET', 200],
      ['GET', 206],
    ]);
    expect(rangeStart(log[2]!.range)).toBe(partial.bytes);
    expect(log[2]!.bytesSent).toBe(size - partial.bytes!);
    // Progress in the reloaded page counted the stored bytes from its first report.
    expect(reloaded.firstFetched).toBe(partial.bytes);
    expect(await stored(model.url)).toMatchObject({ complete: true, bytes: size });
  });

  it('without ranges, the reloaded page starts over cleanly, loads and answers', async () => {
    const size = await SIZE;
    const model = await served({ ranges: false, cut: 0.4 });
    const [[cut, reloaded]] = (await commands.modelPages([{ model: model.url, reloads: 1 }])) as [[PageResult, PageResult]];
    expect(cut).toMatchObject({ ok: false, error: { name: 'ModelFetchError' } });
    expect(reloaded.found).toMatchObject({ complete: false });
    expect(reloaded.found!.bytes).toBeGreaterThan(size * 0.2);
    expect(reloaded.error?.message).toBeUndefined();
    expect(reloaded).toMatchObject({ ok: true });
    expect(reloaded.text!.length).toBeGreaterThan(0);
    const log = (await model.log()).filter((r) => r.method === 'GET');
    expect(log.map((r) => [r.status, r.range])).toEqual([
      [200, undefined],
      [200, `bytes=${reloaded.found!.bytes}-`],
    ]);
    expect(log[1]!.bytesSent).toBe(size);
    // No leftover of the cut download: exactly the file.
    expect(await stored(model.url)).toMatchObject({ complete: true, bytes: size, totalBytes: size });
  });
});

describe('a server that honours Range but ignores If-Range', () => {
  it('a file changed on the server between the cut and the resume is fetched whole, not spliced onto the stored part', async () => {
    const model = await served({ ranges: true, ifRange: false });
    await ((await model.engines()(0, () => {})) as WllamaEngine).unload();
    // Stored up to past the byte the new version changes: the server's rest alone would splice two versions.
    const kept = NEW_VERSION_AT + 1_000_000;
    await rewrite(await firstPart(model.url), (w) => w.truncate(kept));
    await model.configure({ ranges: true, ifRange: false, version: 2 });
    const engine = (await model.engines()(0, () => {})) as WllamaEngine;
    // The 206 carried the new version's ETag: dropped unread, the file fetched whole.
    expect((await model.log()).filter((r) => r.method === 'GET').map((r) => [r.status, r.range])).toEqual([
      [206, `bytes=${kept}-`],
      [200, undefined],
    ]);
    const next = new Uint8Array(await (await fetch(`/${FILE}`)).arrayBuffer());
    next[NEW_VERSION_AT] = next[NEW_VERSION_AT]! ^ 0xff;
    const bytes = await storedBytes(model.url);
    expect(bytes.byteLength).toBe(next.byteLength);
    expect(bytes[NEW_VERSION_AT]).toBe(next[NEW_VERSION_AT]);
    expect(bytes.every((b, i) => b === next[i])).toBe(true);
    expect((await answer(engine)).length).toBeGreaterThan(0);
    await engine.unload();
  });

  it('the same file resumes with the rest alone', async () => {
    const size = await SIZE;
    const model = await served({ ranges: true, ifRange: false });
    await ((await model.engines()(0, () => {})) as WllamaEngine).unload();
    await rewrite(await firstPart(model.url), (w) => w.truncate(1000));
    const engine = (await model.engines()(0, () => {})) as WllamaEngine;
    expect((await model.log()).at(-1)).toMatchObject({ range: 'bytes=1000-', status: 206, bytesSent: size - 1000 });
    expect(await stored(model.url)).toMatchObject({ complete: true, bytes: size });
    await engine.unload();
  });
});

describe('a stored model corrupted on disk', () => {
  it('cut short: found on the next load and completed with a range request', async () => {
    const size = await SIZE;
    const model = await served({ ranges: true });
    await ((await model.engines()(0, () => {})) as WllamaEngine).unload();
    await rewrite(await firstPart(model.url), (w) => w.truncate(1000));
    expect(await stored(model.url)).toMatchObject({ complete: false, bytes: 1000 });
    const engine = (await model.engines()(0, () => {})) as WllamaEngine;
    const log = await model.log();
    expect(log.at(-1)).toMatchObject({ range: 'bytes=1000-', status: 206, bytesSent: size - 1000 });
    expect((await answer(engine)).length).toBeGreaterThan(0);
    await engine.unload();
  });

  it('bytes flipped in the header: llama.cpp refuses it, it is downloaded again and loads', async () => {
    const model = await served({ ranges: true });
    await ((await model.engines()(0, () => {})) as WllamaEngine).unload();
    // The tensor count (bytes 8..15) becomes huge: a file llama.cpp cannot read.
    await rewrite(await firstPart(model.url), async (w) => {
      await w.seek(8);
      await w.write(new Uint8Array(8).fill(0x7f));
    });
    const engine = (await model.engines()(0, () => {})) as WllamaEngine;
    // Downloaded again whole (the stored copy was whole, so there was nothing to resume).
    expect((await model.log()).filter((r) => r.method === 'GET').map((r) => [r.status, r.range])).toEqual([
      [200, undefined],
      [200, undefined],
    ]);
    expect((await answer(engine)).length).toBeGreaterThan(0);
    expect(await stored(model.url)).toMatchObject({ complete: true });
    await engine.unload();
  });

  it('one byte flipped in the weights: the SHA-256 from the catalogue finds it before llama.cpp reads it', async () => {
    const bytes = await (await fetch(`/${FILE}`)).arrayBuffer();
    const sha256 = [...new Uint8Array(await crypto.subtle.digest('SHA-256', bytes))].map((b) => b.toString(16).padStart(2, '0')).join('');
    const model = await served({ ranges: true });
    await ((await model.engines({ sha256 })(0, () => {})) as WllamaEngine).unload();
    // Deep in the weights (the first part holds the first 8 MiB): llama.cpp would load it without a word.
    const at = 5_000_000;
    await rewrite(await firstPart(model.url), async (w) => {
      await w.seek(at);
      await w.write(new Uint8Array([new Uint8Array(bytes)[at]! ^ 0xff]));
    });
    expect(await stored(model.url)).toMatchObject({ complete: true });
    const engine = (await model.engines({ sha256 })(0, () => {})) as WllamaEngine;
    expect((await model.log()).filter((r) => r.method === 'GET').map((r) => r.bytesSent)).toEqual([bytes.byteLength, bytes.byteLength]);
    expect((await answer(engine)).length).toBeGreaterThan(0);
    await engine.unload();
  });
});

/** navigator.storage with a quota of `quota` bytes and nothing used. */
const tight = (quota: number) => ({
  estimate: async () => ({ usage: 0, quota }),
  getDirectory: () => navigator.storage.getDirectory(),
});

/**
 * navigator.storage whose OPFS writes fail with QuotaExceededError once `limit` bytes were
 * written: the real directory handles, wrapped, so only the failure is made up.
 */
const quota = () => new DOMException('The quota has been exceeded.', 'QuotaExceededError');

function fullAfter(limit: number) {
  let written = 0;
  const file = (handle: FileSystemFileHandle) =>
    new Proxy(handle, {
      get(target, key) {
        if (key !== 'createWritable') {
          const value = Reflect.get(target, key);
          return typeof value === 'function' ? value.bind(target) : value;
        }
        return async (options?: FileSystemCreateWritableOptions) => {
          const writable = await target.createWritable(options);
          return {
            write: async (data: Uint8Array) => {
              if (written + data.byteLength > limit) throw quota();
              written += data.byteLength;
              return writable.write(data as BufferSource);
            },
            close: () => writable.close(),
            abort: () => writable.abort(),
          };
        };
      },
    });
  const dir = (handle: FileSystemDirectoryHandle): FileSystemDirectoryHandle =>
    new Proxy(handle, {
      get(target, key) {
        if (key === 'getDirectoryHandle')
          return async (name: string, o?: FileSystemGetDirectoryOptions) => dir(await target.getDirectoryHandle(name, o));
        if (key === 'getFileHandle') return async (name: string, o?: FileSystemGetFileOptions) => file(await target.getFileHandle(name, o));
        if (key === 'entries')
          return async function* () {
            for await (const [name, h] of (target as unknown as { entries(): AsyncIterable<[string, FileSystemHandle]> }).entries())
              yield [name, h.kind === 'directory' ? dir(h as FileSystemDirectoryHandle) : file(h as FileSystemFileHandle)];
          };
        const value = Reflect.get(target, key);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
  return { estimate: () => navigator.storage.estimate(), getDirectory: async () => dir(await navigator.storage.getDirectory()) };
}

describe('room and storage', () => {
  it('a model larger than the free space is refused before any request reaches the server', async () => {
    const size = await SIZE;
    const model = await served({ ranges: true });
    const load = model.engines({ storage: tight(1_000_000), sizeBytes: size })(0, () => {});
    await expect(load).rejects.toBeInstanceOf(NotEnoughStorageError);
    await expect(load).rejects.toMatchObject({ needBytes: size, freeBytes: 1_000_000 });
    await expect(load).rejects.toThrow(/needs 10 MB of storage but this site has 1 MB free\. Free at least 9 MB/);
    expect(await model.log()).toEqual([]);
    // Without a catalogue size, a HEAD asks it: still no download.
    await expect(model.engines({ storage: tight(1_000_000) })(0, () => {})).rejects.toBeInstanceOf(NotEnoughStorageError);
    expect((await model.log()).map((r) => r.method)).toEqual(['HEAD']);
  });

  it('a quota error mid-write is a NotEnoughStorageError, and no half-written model is left', async () => {
    const model = await served({ ranges: true });
    const load = model.engines({ storage: fullAfter(2_000_000) })(0, () => {});
    await expect(load).rejects.toBeInstanceOf(NotEnoughStorageError);
    // The estimate (Chrome's, gigabytes free) said it fitted: no negative "Free at least -4284 MB".
    await expect(load).rejects.toThrow(/needs 10 MB of storage and the browser refused to store it.*Free space.*Nothing was stored/);
    await expect(load.catch((e: Error) => e.message)).resolves.not.toMatch(/\s-\d/);
    expect(await stored(model.url)).toBeUndefined();
    // Room again: the next load downloads it whole and answers.
    const engine = (await model.engines()(0, () => {})) as WllamaEngine;
    expect((await answer(engine)).length).toBeGreaterThan(0);
    await engine.unload();
  });

  it("a real quota smaller than the model, which Chrome's estimate() does not report, is refused before the download", async () => {
    const size = await SIZE;
    const model = await served({ ranges: true });
    const { usage = 0 } = await navigator.storage.estimate();
    const room = 2_000_000;
    await commands.storageQuota(usage + room);
    try {
      const estimate = await navigator.storage.estimate();
      expect((estimate.quota ?? 0) - (estimate.usage ?? 0)).toBeGreaterThan(100 * size);
      const error = await model
        .engines()(0, () => {})
        .then(
          () => undefined,
          (e: unknown) => e as NotEnoughStorageError,
        );
      expect(error).toBeInstanceOf(NotEnoughStorageError);
      expect(error).toMatchObject({ needBytes: size });
      expect(error!.freeBytes).toBeLessThanOrEqual(room);
      expect(error!.freeBytes).toBeGreaterThan(room - size / 50);
      expect(error!.message).toMatch(/needs 10 MB of storage but this site has 2 MB free\. Free at least \d+ MB/);
      // The HEAD that gave the size, and no download.
      expect((await model.log()).map((r) => r.method)).toEqual(['HEAD']);
    } finally {
      await commands.storageQuota(null);
    }
  });

  it('where the browser gives no storage, the model loads from memory and the listing says why it cannot', async () => {
    const model = await served({ ranges: true });
    const engine = (await model.engines({ storage: {} })(0, () => {})) as WllamaEngine;
    expect((await answer(engine)).length).toBeGreaterThan(0);
    await engine.unload();
    await expect(wllamaModelStorage({ storage: {} }).read()).rejects.toBeInstanceOf(StorageUnavailableError);
  });

  it('two tabs loading one model at once download it once (a Web Lock), and both answer', async () => {
    const model = await served({ ranges: true });
    const results = (await commands.modelPages([
      { model: model.url, reloads: 0 },
      { model: model.url, reloads: 0 },
    ])) as PageResult[][];
    expect(results.flat().map((r) => r.ok)).toEqual([true, true]);
    // Each tab looked before it loaded: nothing yet, or the other tab's download under way (never a whole copy).
    for (const result of results.flat()) expect(result.found === null || result.found.complete === false).toBe(true);
    for (const result of results.flat()) expect(result.text!.length).toBeGreaterThan(0);
    expect((await model.log()).filter((r) => r.method === 'GET')).toHaveLength(1);
  });

  it('two engines of one page loading one model at once download it once, and both answer', async () => {
    const model = await served({ ranges: true });
    const [a, b] = (await Promise.all([model.engines()(0, () => {}), model.engines()(1, () => {})])) as WllamaEngine[];
    expect((await model.log()).filter((r) => r.method === 'GET')).toHaveLength(1);
    expect((await answer(a!)).length).toBeGreaterThan(0);
    expect((await answer(b!)).length).toBeGreaterThan(0);
    await Promise.all([a!.unload(), b!.unload()]);
  });

  it('a model is not deleted while it loads; deleted once loaded, the engine keeps answering and the next load downloads it', async () => {
    const model = await served({ ranges: true });
    const storage = wllamaModelStorage();
    let refused: unknown;
    const engine = (await model.engines()(0, (p) => {
      if (p.phase === 'load' && refused === undefined) refused = storage.delete(model.url).catch((error: unknown) => error);
    })) as WllamaEngine;
    expect(await refused).toBeInstanceOf(ModelInUseError);
    await storage.delete(model.url);
    expect(await stored(model.url)).toBeUndefined();
    expect((await answer(engine)).length).toBeGreaterThan(0);
    await engine.unload();
    await ((await model.engines()(0, () => {})) as WllamaEngine).unload();
    expect((await model.log()).filter((r) => r.method === 'GET')).toHaveLength(2);
  });
});

/** Loads `bytes` as a model through a pool (in memory, no store); the pool's phase and error after. */
const corrupt = async (bytes: Uint8Array) => {
  const pool = new EnginePool({
    createEngine: wllamaEngines({ model: '/corrupt.gguf', wasmUrl, storage: false, fetch: async () => new Response(bytes as BlobPart) }),
    size: 1,
  });
  await pool.load().catch(() => {});
  const { phase, error } = pool.getSnapshot();
  await pool.unload();
  return { phase, error };
};

describe('issue 19: wllama load bugs', () => {
  it('a corrupt GGUF (a good header, then garbage) ends the load with a ModelUnreadableError, not ready', async () => {
    const good = new Uint8Array(await (await fetch(`/${FILE}`)).arrayBuffer());
    const bad = good.slice(0, good.length);
    for (let i = 24; i < bad.length; i += 1) bad[i] = (i * 131) & 0xff;
    const result = await corrupt(bad);
    expect(result.phase).toBe('error');
    expect(result.error).toBeInstanceOf(ModelUnreadableError);
  });

  it('half a model ends the load with a ModelUnreadableError, not ready', async () => {
    const good = new Uint8Array(await (await fetch(`/${FILE}`)).arrayBuffer());
    const result = await corrupt(good.slice(0, good.length >> 1));
    expect(result.phase).toBe('error');
    expect(result.error).toBeInstanceOf(ModelUnreadableError);
  });

  it('"Meet at the café" gets an answer from a makeTinyGguf model (byte fallback for characters outside ASCII)', async () => {
    const engine = (await testEngines()(0, () => {})) as WllamaEngine;
    expect((await answer(engine, 'Meet at the café')).length).toBeGreaterThan(0);
    expect((await answer(engine, 'Треба зустрітися 明天见 🎉')).length).toBeGreaterThan(0);
    await engine.unload();
  });
});
