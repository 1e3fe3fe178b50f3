import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { EngineLoadError, EnginePool } from '../src/index.js';
import type { Engine } from '../src/index.js';
import { createFakeEngine, fakeEngines } from '../src/testing/index.js';
import { chat, fakePool } from './helpers.js';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('load and unload', () => {
  it('starts a job submitted before the first engine is ready as soon as it is, and says it is loading meanwhile', async () => {
    const { pool } = fakePool({ reply: 'hello', loadMs: 200 });
    const early = pool.submit(chat('x'));
    expect(pool.getSnapshot()).toMatchObject({ phase: 'idle', queued: 1 });
    const progress: number[] = [];
    const loading = pool.load((report) => progress.push(report.progress));
    expect(pool.getSnapshot().phase).toBe('loading');
    await vi.advanceTimersByTimeAsync(100);
    expect(pool.getSnapshot().loadProgress).toMatchObject({ engine: 1, engines: 1, progress: 0.5 });
    await vi.advanceTimersByTimeAsync(100);
    expect(await loading).toBe(1);
    expect(progress.at(-1)).toBe(1);
    await vi.runAllTimersAsync();
    expect(await early).toMatchObject({ status: 'done', text: 'hello' });
  });

  it('load() twice loads once; load() when loaded does nothing', async () => {
    const { pool, createEngine } = fakePool({ loadMs: 10 });
    const a = pool.load();
    const b = pool.load();
    expect(a).toBe(b);
    await vi.advanceTimersByTimeAsync(10);
    await a;
    await pool.load();
    expect(createEngine.engines).toHaveLength(1);
  });

  it('a second load() during a load joins it: its onProgress hears the latest report at once, then the rest', async () => {
    const { pool, createEngine } = fakePool({ loadMs: 200 });
    const first: number[] = [];
    const second: number[] = [];
    const a = pool.load((report) => first.push(report.progress));
    await vi.advanceTimersByTimeAsync(100);
    const b = pool.load((report) => second.push(report.progress));
    expect(b).toBe(a);
    expect(second).toEqual([first.at(-1)]);
    await vi.advanceTimersByTimeAsync(100);
    expect(await b).toBe(1);
    expect(first.at(-1)).toBe(1);
    expect(second.at(-1)).toBe(1);
    expect(second.length).toBeGreaterThan(1);
    expect(createEngine.engines).toHaveLength(1);
  });

  it('a failed load rejects with an EngineLoadError, shows it in the snapshot, and can be retried', async () => {
    const createEngine = fakeEngines({ failLoad: (_i, attempt) => (attempt === 1 ? new Error('404 model not found') : undefined) });
    const pool = new EnginePool({ createEngine });
    const waiting = pool.submit(chat('x'));
    await expect(pool.load()).rejects.toBeInstanceOf(EngineLoadError);
    expect(pool.getSnapshot().phase).toBe('error');
    expect(pool.getSnapshot().error?.message).toMatch(/could not be loaded: 404 model not found/);
    expect(pool.getSnapshot().error?.cause).toBeInstanceOf(Error);
    // The job that waited for it ended with the load's error (failedLoad.test.ts).
    expect((await waiting).status).toBe('error');
    await pool.load();
    expect(pool.getSnapshot()).toMatchObject({ phase: 'ready', error: null });
    const after = pool.submit(chat('y'));
    await vi.runAllTimersAsync();
    expect((await after).status).toBe('done');
  });

  it('a createEngine that throws synchronously is a failed load, not a crash', async () => {
    const pool = new EnginePool({
      createEngine: () => {
        throw new Error('sync');
      },
    });
    await expect(pool.load()).rejects.toThrow(/sync/);
  });

  it('unload() during load tears down the late engine and leaves the pool empty', async () => {
    const createEngine = fakeEngines({ loadMs: 100 });
    // An engine that cannot stop its load early: it is handed a signal nobody aborts.
    const pool = new EnginePool({
      createEngine: (index, onProgress) => createEngine(index, onProgress, { signal: new AbortController().signal }),
    });
    const loading = pool.load();
    await vi.advanceTimersByTimeAsync(50);
    await pool.unload();
    await vi.advanceTimersByTimeAsync(100);
    expect(await loading).toBe(0);
    expect(pool.getSnapshot().size).toBe(0);
    expect(createEngine.engines[0]?.unloaded).toBe(true);
    expect(pool.getSnapshot().phase).toBe('idle');
  });

  it('load() right after unload() starts a fresh load (StrictMode mounts twice)', async () => {
    const { pool, createEngine } = fakePool({ loadMs: 100 });
    const stale = pool.load();
    await pool.unload();
    const fresh = pool.load();
    expect(fresh).not.toBe(stale);
    await vi.advanceTimersByTimeAsync(100);
    expect(await fresh).toBe(1);
    expect(await stale).toBe(0);
    expect(pool.getSnapshot().size).toBe(1);
    expect(createEngine.engines.filter((e) => !e.unloaded)).toHaveLength(1);
  });

  it('unload() during growth tears down the engine that arrives late', async () => {
    const { pool, createEngine } = fakePool({ reply: 'a b c d e f', tokenMs: 10, loadMs: 100 });
    const loading = pool.load();
    await vi.advanceTimersByTimeAsync(100);
    await loading;
    pool.submit(chat('a', { task: 'a' }));
    pool.submit(chat('b', { task: 'b' }));
    expect(pool.getSnapshot().growing).toBe(true);
    await pool.unload();
    await vi.advanceTimersByTimeAsync(200);
    expect(pool.getSnapshot().size).toBe(0);
    expect(createEngine.engines.every((e) => e.unloaded)).toBe(true);
  });

  it('unload() cancels every job, running and queued, and unloads every engine', async () => {
    const { pool, createEngine } = fakePool({ reply: 'a b c d e f', tokenMs: 10 }, { size: 1 });
    await pool.load();
    const running = pool.submit(chat('a', { task: 't' }));
    const queued = pool.submit(chat('b', { task: 't' }));
    await vi.advanceTimersByTimeAsync(15);
    await pool.unload();
    expect(await running).toMatchObject({ status: 'cancelled', cancelReason: 'unload' });
    expect(await queued).toMatchObject({ status: 'cancelled', cancelReason: 'unload' });
    expect(createEngine.engines[0]?.unloaded).toBe(true);
    expect(pool.getSnapshot()).toMatchObject({ size: 0, running: 0, queued: 0, jobs: [] });
  });

  it('configure() reaches every engine now and every engine built later', async () => {
    const seen: Array<Record<string, unknown>> = [];
    const make = () => {
      const engine = createFakeEngine({ reply: 'a b c', tokenMs: 10 });
      const configured: Engine = Object.assign(engine, { configure: (patch: Record<string, unknown>) => seen.push(patch) });
      return configured;
    };
    const pool = new EnginePool({ createEngine: async () => make(), size: 2 });
    await pool.load();
    expect(pool.configure({ decodeSteps: 4 })).toBe(1);
    pool.submit(chat('a', { task: 'a' }));
    pool.submit(chat('b', { task: 'b' }));
    await vi.advanceTimersByTimeAsync(1);
    expect(pool.getSnapshot().size).toBe(2);
    expect(seen).toEqual([{ decodeSteps: 4 }, { decodeSteps: 4 }]);
  });
});

describe('cancelled loads', () => {
  it('a fake engine load stops early when unload() aborts it', async () => {
    const { pool, createEngine } = fakePool({ loadMs: 1000 });
    const loading = pool.load();
    await vi.advanceTimersByTimeAsync(200);
    await pool.unload();
    await vi.advanceTimersByTimeAsync(100);
    expect(await loading).toBe(0);
    // It never got as far as building an engine.
    expect(createEngine.engines).toHaveLength(0);
  });
});
