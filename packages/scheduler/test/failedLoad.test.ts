import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { EngineLoadError, EnginePool } from '../src/index.js';
import { fakeEngines } from '../src/testing/index.js';
import { chat } from './helpers.js';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

/** A pool whose first load fails with a 404 after `loadMs`, then loads on the next try. */
function failingPool(loadMs = 0) {
  const createEngine = fakeEngines({
    reply: 'hello',
    loadMs,
    failLoad: (_index, attempt) => (attempt === 1 ? new Error('404 model not found') : undefined),
  });
  return { pool: new EnginePool({ createEngine, size: 2 }), createEngine };
}

describe('after a failed load', () => {
  it('ends every queued job at once with the load’s typed error, in every priority', async () => {
    const { pool } = failingPool(100);
    const ghost = pool.submit({ ...chat('ghost'), priority: 'interactive', session: 'editor' });
    const rows = [1, 2, 3].map((n) => pool.submit({ ...chat(`row ${n}`), task: 'translate', priority: 'normal', preemptible: true }));
    const loading = pool.load().catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(100);
    const failure = await loading;
    expect(failure).toBeInstanceOf(EngineLoadError);
    const results = await Promise.all([ghost, ...rows]);
    for (const result of results) {
      expect(result.status).toBe('error');
      // The very error the snapshot shows, so a hook and the header say the same thing.
      expect(result.error).toBe(failure);
    }
    expect(pool.getSnapshot()).toMatchObject({ phase: 'error', queued: 0, running: 0 });
  });

  it('ends a job submitted while the pool is in error at once, without waiting for a load nobody asked for', async () => {
    const { pool, createEngine } = failingPool();
    await expect(pool.load()).rejects.toBeInstanceOf(EngineLoadError);
    const result = await pool.submit(chat('late'));
    expect(result).toMatchObject({ status: 'error', error: pool.getSnapshot().error });
    expect(result.error?.message).toMatch(/404 model not found/);
    // No load was started for it.
    expect(createEngine.builds.get(0)).toBe(1);
  });

  it('runs jobs again once load() is called again and succeeds; jobs queued during that load wait for it', async () => {
    const { pool } = failingPool(50);
    const first = pool.load().catch(() => undefined);
    await vi.advanceTimersByTimeAsync(50);
    await first;
    const retry = pool.load();
    const waiting = pool.submit(chat('during the retry'));
    expect(pool.getSnapshot().phase).toBe('loading');
    await vi.advanceTimersByTimeAsync(50);
    expect(await retry).toBe(1);
    await vi.runAllTimersAsync();
    expect(await waiting).toMatchObject({ status: 'done', text: 'hello' });
  });

  it('keeps jobs waiting on a pool nobody has loaded yet', async () => {
    const { pool } = failingPool();
    const job = pool.submit(chat('before any load'));
    await vi.advanceTimersByTimeAsync(1000);
    expect(pool.getSnapshot()).toMatchObject({ phase: 'idle', queued: 1 });
    await pool.unload();
    expect((await job).status).toBe('cancelled');
  });
});
