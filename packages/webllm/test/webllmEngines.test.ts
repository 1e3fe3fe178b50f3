import { EngineCrashedError, EnginePool, InvalidOptionError, InvalidSchemaError, type PoolLoadProgress } from '@inkling/scheduler';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  GPUDeviceLostError,
  LoadCancelledError,
  ModelFetchError,
  ModelNotFoundError,
  OutOfMemoryError,
  ShaderF16UnsupportedError,
  WebGPUUnavailableError,
  type WebLLMEnginesOptions,
  WorkerCrashedError,
  webllmEngines,
} from '../src/index.js';
import { fakeWorkers } from './fakeWorker.js';
import { appConfig, chat, fakeGpu, fakeWebLLM, until, useVirtualTime } from './helpers.js';

beforeEach(useVirtualTime);
afterEach(() => {
  vi.useRealTimers();
});

/** A WebGPU whose one adapter is a software one: by `info` (SwiftShader's names) or by `isFallbackAdapter`. */
function softwareGpu(info: Record<string, unknown>, isFallbackAdapter = false) {
  const gpu = fakeGpu();
  return {
    requestAdapter: async () => ({ ...(await gpu.requestAdapter())!, info: { ...info }, isFallbackAdapter }),
  } as typeof gpu;
}

describe('webllmEngines: loading', () => {
  it('loads the model in a worker and streams WebLLM chunks through the pool', async () => {
    const { createEngine, workers } = fakeWebLLM();
    const pool = new EnginePool({ createEngine, size: 1 });
    await pool.load();
    const chunks: unknown[] = [];
    const result = await pool.submit(chat('hi', { onChunk: (c) => chunks.push(c) }));
    expect(result).toMatchObject({ status: 'done', text: 'one two three four five six seven eight', finishReason: 'stop' });
    expect(result.usage).toMatchObject({ completion_tokens: 8 });
    expect(workers).toHaveLength(1);
    expect(workers[0]?.mlc?.reloads).toEqual([{ model: 'Tiny-q4f32_1', chatOptions: undefined }]);
    // WebLLM got the app's models, with the cache named both ways.
    expect(workers[0]?.mlc?.config.appConfig).toMatchObject({
      model_list: appConfig.model_list,
      cacheBackend: 'cache',
      useIndexedDBCache: false,
    });
  });

  it('keeps prefix reuse off on a software GPU adapter (SwiftShader), and says so in the load log', async () => {
    for (const gpu of [
      softwareGpu({ vendor: 'google', architecture: 'swiftshader', device: '', description: '' }),
      softwareGpu({}, true),
    ]) {
      const { createEngine } = fakeWebLLM({ gpu });
      const pool = new EnginePool({ createEngine, size: 1 });
      const reports: PoolLoadProgress[] = [];
      await pool.load((r) => reports.push(r));
      expect(reports.at(-1)?.text).toMatch(/^Prefix reuse: off, the GPU adapter is a software one/);
      await pool.unload();
    }
  });

  it('reports one overall progress that never goes back, with WebLLM phase text', async () => {
    const { createEngine } = fakeWebLLM();
    const pool = new EnginePool({ createEngine, size: 1 });
    const reports: PoolLoadProgress[] = [];
    await pool.load((r) => reports.push(r));
    const overall = reports.map((r) => r.progress);
    expect(overall).toEqual(overall.toSorted((a, b) => a - b));
    expect(overall.at(-1)).toBe(1);
    expect(reports.map((r) => r.phase)).toEqual(['fetch', 'fetch', 'fetch', 'load', 'load', 'shaders', 'shaders', 'ready', 'other']);
    // The load log's last line says whether prefix reuse, the one-pass greedy pick and the lanes are on, and why not (the fake has no WebLLM pipeline).
    expect(reports.at(-1)?.text).toMatch(/^Prefix reuse: off, this WebLLM keeps its pipeline elsewhere/);
    expect(reports.at(-1)?.text).toMatch(/Greedy tokens: as WebLLM picks them \(this WebLLM keeps its pipeline elsewhere\)\./);
    expect(reports.at(-1)?.text).toMatch(/Lanes: off, this WebLLM keeps its pipeline elsewhere .*; one generation at a time\.$/);
    // Each WebLLM phase restarts at 0; the overall fraction does not.
    expect(reports[3]).toMatchObject({ phaseProgress: 0.5, engine: 1, engines: 1 });
    expect(reports[3]?.progress).toBeGreaterThan(reports[2]?.progress ?? 1);
    expect(reports[0]?.text).toBe('Start to fetch params');
  });

  it('refuses a WebLLM module on the page, and says where it goes instead', () => {
    const options = { model: 'Tiny-q4f32_1', webllm: () => import('@mlc-ai/web-llm') } as never;
    expect(() => webllmEngines(options)).toThrow(InvalidOptionError);
    expect(() => webllmEngines(options)).toThrow(/hostWebLLM/);
  });

  it("passes WebLLM's engine config and chat options through to the worker's engine", async () => {
    const chatOptions = { temperature: 0.2 };
    const { createEngine, workers } = fakeWebLLM({}, { engineConfig: { logLevel: 'WARN' }, chatOptions });
    await new EnginePool({ createEngine }).load();
    expect(workers[0]?.mlc?.config).toMatchObject({ logLevel: 'WARN' });
    expect(workers[0]?.mlc?.reloads[0]?.chatOptions).toEqual(chatOptions);
  });

  it("without an appConfig, the worker reads WebLLM's prebuilt list: it names an unknown id and refuses an f16 build", async () => {
    const unknown = fakeWebLLM({}, { appConfig: undefined, model: 'Nope-q4f32_1' });
    const error = await new EnginePool({ createEngine: unknown.createEngine }).load().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelNotFoundError); // typed in the worker, rebuilt on the page
    expect((error as ModelNotFoundError).model).toBe('Nope-q4f32_1');
    expect(unknown.workers).toHaveLength(1);
    const f16 = fakeWebLLM({}, { appConfig: undefined, model: 'Qwen2.5-0.5B-Instruct-q4f16_1-MLC' });
    const refused = await new EnginePool({ createEngine: f16.createEngine }).load().catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ShaderF16UnsupportedError);
    expect((refused as ShaderF16UnsupportedError).suggestion).toBe('Qwen2.5-0.5B-Instruct-q4f32_1-MLC');
    expect(f16.workers[0]?.mlc).toBeUndefined(); // WebLLM never started
  });

  it('writes the chosen cache backend for both old and new WebLLM', async () => {
    const { createEngine, workers } = fakeWebLLM({}, { cache: 'indexeddb' });
    await new EnginePool({ createEngine }).load();
    expect(workers[0]?.mlc?.config.appConfig).toMatchObject({ cacheBackend: 'indexeddb', useIndexedDBCache: true });
  });

  it('refuses an f16 model on an adapter without shader-f16, naming the f32 build, before WebLLM loads anything', async () => {
    const { createEngine, workers } = fakeWebLLM({}, { model: 'Tiny-q4f16_1' });
    const pool = new EnginePool({ createEngine });
    const error = await pool.load().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ShaderF16UnsupportedError);
    expect((error as Error).message).toContain('"Tiny-q4f16_1"');
    expect((error as Error).message).toContain('"Tiny-q4f32_1"');
    expect(error).toMatchObject({ model: 'Tiny-q4f16_1', suggestion: 'Tiny-q4f32_1' });
    expect(workers[0]?.mlc).toBeUndefined();
    expect(pool.getSnapshot()).toMatchObject({ phase: 'error', error });
    await until(() => workers[0]?.terminated === true);
  });

  it('loads an f16 model when the adapter has shader-f16', async () => {
    const { createEngine } = fakeWebLLM({ gpu: fakeGpu(['shader-f16']) }, { model: 'Tiny-q4f16_1' });
    await expect(new EnginePool({ createEngine }).load()).resolves.toBe(1);
  });

  it('says WebGPU is unavailable when there is no adapter', async () => {
    const { createEngine, workers } = fakeWebLLM({ gpu: { requestAdapter: async () => null } });
    const error = await new EnginePool({ createEngine }).load().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WebGPUUnavailableError);
    expect((error as WebGPUUnavailableError).reason).toMatch(/no GPU adapter was found/);
    expect(workers[0]?.mlc).toBeUndefined();
  });

  it('with gpu: null the worker skips its WebGPU check, and WebLLM decides', async () => {
    const checked = fakeWebLLM({ gpu: null });
    await expect(new EnginePool({ createEngine: checked.createEngine }).load()).rejects.toBeInstanceOf(WebGPUUnavailableError);
    const skipped = fakeWebLLM({ gpu: null }, { gpu: null });
    await expect(new EnginePool({ createEngine: skipped.createEngine }).load()).resolves.toBe(1); // the fake WebLLM needs no GPU
  });

  it('names an unknown model and how to fix it', async () => {
    const { createEngine } = fakeWebLLM({}, { model: 'Nope-q4f32_1' });
    const error = await new EnginePool({ createEngine }).load().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelNotFoundError);
    expect((error as Error).message).toMatch(/model_list/);
  });

  it('turns a failed download into a ModelFetchError with the URL, and frees the worker', async () => {
    const url = 'http://127.0.0.1:8000/models/Tiny-q4f32_1/resolve/main/params_shard_3.bin';
    const { createEngine, workers } = fakeWebLLM({ failLoad: `Error: Cannot fetch ${url} err= TypeError: Failed to fetch` });
    const error = await new EnginePool({ createEngine }).load().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelFetchError);
    expect((error as ModelFetchError).url).toBe(url);
    expect((error as ModelFetchError).cause).toBeInstanceOf(Error);
    await until(() => workers[0]?.terminated === true);
  });

  it('turns a device lost during load into an OutOfMemoryError that says what the model needs', async () => {
    const { createEngine } = fakeWebLLM({ failLoad: 'DeviceLostError: The WebGPU device was lost while loading the model.' });
    const error = await new EnginePool({ createEngine }).load().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OutOfMemoryError);
    expect((error as Error).message).toContain('300 MB');
    expect(error).toMatchObject({ device: 'gpu', kind: 'out-of-memory', vramRequiredMB: 300 });
  });

  it('says how to supply a worker where there are no Web Workers', async () => {
    const { createEngine } = fakeWebLLM({}, { worker: undefined });
    const error = await new EnginePool({ createEngine }).load().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidOptionError);
    expect((error as Error).message).toMatch(/`worker` option/);
  });

  it('checks its options when called', () => {
    expect(() => webllmEngines({ model: '' })).toThrow(InvalidOptionError);
    expect(() => webllmEngines({ model: 'x', appConfig: {} as never })).toThrow(/model_list/);
    expect(() => webllmEngines({ model: 'x', lanes: 0 })).toThrow('webllmEngines() "lanes" must be a whole number from 1 to 64; it got 0.');
    expect(() => webllmEngines({ model: 'x', prefixReuse: 'no' as never })).toThrow('"prefixReuse" must be true or false; it got "no".');
  });

  it('refuses an option it does not take, naming the near one and every one it takes', () => {
    expect(() => webllmEngines({ model: 'x', lane: 4 } as never)).toThrow(InvalidOptionError);
    expect(() => webllmEngines({ model: 'x', lane: 4 } as never)).toThrow(
      'webllmEngines() has no option "lane" (did you mean "lanes"?): remove or rename it. Its options: model, worker, prefixReuse, lanes, sizeBytes, appConfig, cache, engineConfig, chatOptions, gpu, timers, storage.',
    );
    expect(() => webllmEngines({ model: 'x', pick: 'gpu' } as never)).toThrow(/^webllmEngines\(\) has no option "pick": remove/);
    // A misspelt required option reads as the typo it is, not as "model" missing.
    expect(() => webllmEngines({ modle: 'x' } as never)).toThrow('has no option "modle" (did you mean "model"?)');
  });

  it('takes every option it documents, and an unknown key left undefined', () => {
    const all: Required<WebLLMEnginesOptions> = {
      model: 'x',
      appConfig: { model_list: [] } as never,
      cache: 'indexeddb',
      engineConfig: {},
      chatOptions: {},
      worker: () => silentWorker() as never,
      gpu: null,
      prefixReuse: false,
      lanes: 2,
      timers: { setTimeout, clearTimeout },
      sizeBytes: 1,
      storage: {} as never,
    };
    expect(typeof webllmEngines(all)).toBe('function');
    expect(typeof webllmEngines({ model: 'x', lane: undefined } as never)).toBe('function');
  });
});

/** A worker whose script never runs ours: it takes messages and says nothing. */
function silentWorker() {
  return { onmessage: null, postMessage: vi.fn(), terminate: vi.fn() };
}

describe('webllmEngines: a worker that never answers', () => {
  it('gives up after the handshake timeout, says what to check, and ends the worker', async () => {
    const worker = silentWorker();
    const pool = new EnginePool({
      createEngine: webllmEngines({ model: 'Tiny-q4f32_1', appConfig, worker: () => worker, gpu: fakeGpu() }),
    });
    const started = Date.now();
    const error = await pool.load().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WorkerCrashedError);
    expect((error as Error).message).toMatch(/did not answer within 60 s/);
    expect((error as Error).message).toMatch(/URL/);
    expect((error as Error).message).toMatch(/worker-src/);
    expect(Date.now() - started).toBeGreaterThanOrEqual(60_000);
    expect(worker.postMessage.mock.calls.map(([m]) => (m as { type: string }).type)).toEqual(['hello']);
    expect(worker.terminate).toHaveBeenCalled();
  });

  it('runs its handshake timeout and unload grace on the timers it is given, none of the platform', async () => {
    const due: Array<{ callback: () => void; ms: number; cleared: boolean }> = [];
    const timers = {
      setTimeout: (callback: () => void, ms: number) => due.push({ callback, ms, cleared: false }) - 1,
      clearTimeout: (handle: unknown) => {
        if (typeof handle === 'number' && due[handle]) due[handle].cleared = true;
      },
    };
    const worker = silentWorker();
    const loading = webllmEngines({ model: 'Tiny-q4f32_1', appConfig, worker: () => worker, gpu: fakeGpu(), timers })(0, () => {}, {
      signal: new AbortController().signal,
    });
    await until(() => due.length === 1);
    expect(due[0]?.ms).toBe(60_000);
    expect(vi.getTimerCount()).toBe(0);
    due[0]?.callback(); // the handshake's time is up
    await expect(loading).rejects.toBeInstanceOf(WorkerCrashedError);
    expect(worker.terminate).toHaveBeenCalled();
  });

  it('a load cancelled during the handshake stops at once, and no timer is left behind', async () => {
    const worker = silentWorker();
    const createEngine = webllmEngines({ model: 'Tiny-q4f32_1', appConfig, worker: () => worker, gpu: fakeGpu() });
    const controller = new AbortController();
    const loading = createEngine(0, () => {}, { signal: controller.signal });
    await new Promise((resolve) => setTimeout(resolve, 1000));
    controller.abort();
    await expect(loading).rejects.toBeInstanceOf(LoadCancelledError);
    await until(() => worker.terminate.mock.calls.length > 0, 10_000); // after the unload's grace period
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe('webllmEngines: cancelling a load', () => {
  it('unload() during load stops it: no engine, no worker, no weights, even though WebLLM resolves the reload', async () => {
    const { createEngine, workers } = fakeWebLLM({ stepMs: 20 });
    const pool = new EnginePool({ createEngine });
    const loading = pool.load();
    await until(() => workers.length === 1 && workers[0]?.mlc?.reloads.length === 1);
    await pool.unload();
    await expect(loading).resolves.toBe(0);
    const worker = workers[0];
    expect(worker?.kinds('unload')).toHaveLength(1); // WebLLM was told, so it cancels its downloads
    await until(() => worker?.terminated === true);
    expect(worker?.engine).toBeUndefined();
    expect(pool.getSnapshot()).toMatchObject({ phase: 'idle', size: 0 });
  });

  it('rejects with LoadCancelledError when the signal aborts', async () => {
    const { createEngine, workers } = fakeWebLLM({ stepMs: 20 });
    const controller = new AbortController();
    const loading = createEngine(0, () => {}, { signal: controller.signal });
    await until(() => workers.length === 1);
    controller.abort();
    await expect(loading).rejects.toBeInstanceOf(LoadCancelledError);
    await until(() => workers[0]?.terminated === true);
  });

  it('never hands over an engine whose reload resolved after an unload cut it short', async () => {
    // The race: the abort arrives, WebLLM resolves the cut-short reload in the
    // same turn. The load must still be refused.
    const { createEngine, workers } = fakeWebLLM({ stepMs: 5 });
    const controller = new AbortController();
    const progress: unknown[] = [];
    const loading = createEngine(0, (p) => progress.push(p), { signal: controller.signal });
    await until(() => progress.length === 2);
    controller.abort();
    await expect(loading).rejects.toBeInstanceOf(LoadCancelledError);
    const seen = progress.length;
    await until(() => workers[0]?.terminated === true);
    expect(progress).toHaveLength(seen); // nothing reported after the cancel
  });
});

describe('webllmEngines: engines that die', () => {
  it('marks an engine whose worker died as fatal; the pool replaces it and queued work runs', async () => {
    const { createEngine, workers } = fakeWebLLM({ tokenMs: 20 });
    const pool = new EnginePool({ createEngine, size: 1 });
    await pool.load();
    const running = pool.submit(chat('a'));
    const queued = pool.submit(chat('b'));
    await until(() => (workers[0]?.engine?.calls[0]?.tokens ?? 0) >= 1);
    workers[0]?.crash();
    const failed = await running;
    expect(failed.status).toBe('error');
    expect(failed.error).toBeInstanceOf(WorkerCrashedError);
    expect(failed.error).toBeInstanceOf(EngineCrashedError);
    expect((await queued).status).toBe('done');
    expect(workers).toHaveLength(2);
    await until(() => workers[0]?.terminated === true);
  });

  it('marks a lost GPU device as fatal', async () => {
    const { createEngine, workers } = fakeWebLLM();
    const pool = new EnginePool({ createEngine, size: 1 });
    await pool.load();
    workers[0]?.mlc?.loseDevice();
    const result = await pool.submit(chat('a'));
    expect(result.error).toBeInstanceOf(GPUDeviceLostError);
    await until(() => workers.length === 2 && pool.getSnapshot().engines[0]?.state === 'idle');
    expect((await pool.submit(chat('b'))).status).toBe('done');
  });

  it('keeps the engine for an error that concerns one request only', async () => {
    const { createEngine, workers } = fakeWebLLM();
    const pool = new EnginePool({ createEngine, size: 1 });
    await pool.load();
    const result = await pool.submit({ kind: 'embedding', params: { input: 'x' } });
    expect(result.status).toBe('error'); // a chat model's engine offers no embeddings
    expect((await pool.submit(chat('b'))).status).toBe('done');
    expect(workers).toHaveLength(1);
  });

  it('offers embeddings for an embedding model', async () => {
    const { createEngine } = fakeWebLLM({}, { model: 'Embed-q0f32' });
    const pool = new EnginePool({ createEngine, size: 1 });
    await pool.load();
    const result = await pool.submit({ kind: 'embedding', params: { input: ['a', 'b'] } });
    expect(result.status).toBe('done');
    expect(result.embeddings).toHaveLength(2);
  });

  it('unload() frees the model and terminates the worker', async () => {
    const { createEngine, workers } = fakeWebLLM();
    const pool = new EnginePool({ createEngine });
    await pool.load();
    await pool.unload();
    expect(workers[0]?.kinds('unload')).toHaveLength(1);
    expect(workers[0]?.terminated).toBe(true);
  });
});

describe('webllmEngines: a page without WebGPU', () => {
  it('fails the load at once, before any worker starts', async () => {
    const workers = fakeWorkers({ gpu: fakeGpu() });
    // Node's navigator has no gpu, like a browser without WebGPU.
    const createEngine = webllmEngines({ model: 'Tiny-q4f32_1', appConfig, worker: workers });
    const error = await new EnginePool({ createEngine }).load().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WebGPUUnavailableError);
    expect((error as WebGPUUnavailableError).reason).toMatch(/navigator\.gpu is missing/);
    expect(workers.workers).toHaveLength(0);
  });

  it('starts the worker with gpu: null, and lets WebLLM decide', async () => {
    const workers = fakeWorkers({ reply: 'ok', gpu: null });
    const createEngine = webllmEngines({ model: 'Tiny-q4f32_1', appConfig, worker: workers, gpu: null });
    await expect(new EnginePool({ createEngine }).load()).resolves.toBe(1);
    expect(workers.workers).toHaveLength(1);
  });
});

describe('webllmEngines: a schema-constrained job', () => {
  it('sends WebLLM its own json_object shape (xgrammar enforces it), and refuses a schema outside the portable subset before WebLLM hears of it', async () => {
    const workers = fakeWorkers({ reply: '{"a":"x"}', gpu: null });
    const pool = new EnginePool({ createEngine: webllmEngines({ model: 'Tiny-q4f32_1', appConfig, worker: workers, gpu: null }), size: 1 });
    await pool.load();
    const schema = { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] } as const;
    const ok = await pool.submit({
      params: { messages: [{ role: 'user', content: 'x' }], response_format: { type: 'json_schema', json_schema: { schema } } },
    });
    expect(ok.status).toBe('done');
    // WebLLM itself (behind the worker) gets its own shape.
    const reached = workers.workers[0]?.webllm.engines[0]?.engine?.calls[0]?.request;
    expect(reached?.response_format).toEqual({ type: 'json_object', schema: JSON.stringify(schema) });
    expect(JSON.parse(ok.text)).toHaveProperty('a');
    const bad = await pool.submit({
      params: {
        messages: [{ role: 'user', content: 'x' }],
        response_format: { type: 'json_schema', json_schema: { schema: { type: 'object', not: {} } as never } },
      },
    });
    expect(bad.error).toBeInstanceOf(InvalidSchemaError);
    expect((bad.error as InvalidSchemaError).path).toBe('not');
    expect(workers.workers[0]?.webllm.engines[0]?.engine?.calls).toHaveLength(1);
    await pool.unload();
  });
});
