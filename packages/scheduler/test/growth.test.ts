import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { EnginePool } from '../src/index.js';
import { fakeEngines } from '../src/testing/index.js';
import { chat, fakePool } from './helpers.js';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

const LONG = Array.from({ length: 20 }, (_, i) => `t${i}`).join(' ');

describe('demand-driven growth', () => {
  it('load() brings up one engine however large the pool may grow', async () => {
    const { pool, createEngine } = fakePool({}, { size: 4 });
    expect(await pool.load()).toBe(1);
    expect(createEngine.engines).toHaveLength(1);
    expect(pool.getSnapshot().size).toBe(1);
    expect(pool.getSnapshot().maxSize).toBe(4);
  });

  it('many queued items of one task keep the pool at one engine', async () => {
    const { pool, createEngine } = fakePool({ reply: 'x y', tokenMs: 10 }, { size: 2 });
    await pool.load();
    const items = Array.from({ length: 4 }, (_, i) => pool.submit(chat(`item ${i}`, { task: 'page' })));
    await vi.runAllTimersAsync();
    await Promise.all(items);
    expect(createEngine.engines).toHaveLength(1);
  });

  it('a job of another task waiting on a busy pool grows it by one, and both tasks then run at once', async () => {
    const { pool, createEngine } = fakePool({ reply: LONG, tokenMs: 10, loadMs: 100 }, { size: 2 });
    const loading = pool.load();
    await vi.advanceTimersByTimeAsync(100);
    await loading;
    const items = Array.from({ length: 3 }, (_, i) => pool.submit(chat(`item ${i}`, { task: 'page' })));
    const reply = pool.submit(chat('question', { task: 'chat' }));
    expect(pool.getSnapshot().growing).toBe(true);
    await vi.advanceTimersByTimeAsync(101);
    expect(pool.getSnapshot().size).toBe(2);
    const running = pool
      .getSnapshot()
      .jobs.filter((j) => j.state === 'running')
      .map((j) => j.task);
    expect(running.toSorted()).toEqual(['chat', 'page']);
    await vi.runAllTimersAsync();
    await Promise.all([...items, reply]);
    expect(createEngine.engines).toHaveLength(2);
  });

  it('one task never holds two engines, so a second engine idles rather than split a batch', async () => {
    const { pool } = fakePool({ reply: LONG, tokenMs: 10 }, { size: 2 });
    await pool.load();
    const other = pool.submit(chat('q', { task: 'chat' }));
    const items = Array.from({ length: 3 }, (_, i) => pool.submit(chat(`item ${i}`, { task: 'page' })));
    await vi.advanceTimersByTimeAsync(1);
    for (let t = 0; t < 30; t += 1) {
      const pageOnEngines = pool.getSnapshot().jobs.filter((j) => j.task === 'page' && j.state !== 'queued');
      expect(pageOnEngines.length).toBeLessThanOrEqual(1);
      await vi.advanceTimersByTimeAsync(10);
    }
    await vi.runAllTimersAsync();
    await Promise.all([other, ...items]);
  });

  it('an interactive job takes a free engine even when its task is running', async () => {
    const { pool } = fakePool({ reply: LONG, tokenMs: 10 }, { size: 2 });
    await pool.load();
    pool.submit(chat('n', { task: 'x' }));
    pool.submit(chat('other', { task: 'y' }));
    await vi.advanceTimersByTimeAsync(1);
    expect(pool.getSnapshot().size).toBe(2);
    await vi.advanceTimersByTimeAsync(1000); // both done; well inside the idle timeout
    expect(pool.getSnapshot().running).toBe(0);
    const a = pool.submit(chat('a', { task: 'same', priority: 'interactive' }));
    const b = pool.submit(chat('b', { task: 'same', priority: 'interactive' }));
    await vi.advanceTimersByTimeAsync(1);
    expect(pool.getSnapshot().running).toBe(2);
    await vi.runAllTimersAsync();
    await Promise.all([a, b]);
  });

  it('records a failed growth as growthBlocked and does not retry it until unload()', async () => {
    const createEngine = fakeEngines({
      reply: LONG,
      tokenMs: 10,
      failLoad: (index) => (index === 1 ? new Error('Out of memory') : undefined),
    });
    const pool = new EnginePool({ createEngine, size: 3 });
    await pool.load();
    const a = pool.submit(chat('a', { task: 'a' }));
    const b = pool.submit(chat('b', { task: 'b' }));
    await vi.advanceTimersByTimeAsync(1);
    expect(pool.getSnapshot().growthBlocked).toBe('Out of memory');
    const c = pool.submit(chat('c', { task: 'c' }));
    await vi.runAllTimersAsync();
    await Promise.all([a, b, c]);
    expect(createEngine.builds.get(1)).toBe(1);
    expect(pool.getSnapshot().size).toBe(1);
    // The failure belongs to no job.
    expect([(await a).status, (await b).status, (await c).status]).toEqual(['done', 'done', 'done']);
    await pool.unload();
    expect(pool.getSnapshot().growthBlocked).toBeNull();
  });

  it('never grows past size', async () => {
    const { pool, createEngine } = fakePool({ reply: LONG, tokenMs: 10 }, { size: 2 });
    await pool.load();
    const jobs = ['a', 'b', 'c', 'd'].map((task) => pool.submit(chat(task, { task })));
    await vi.runAllTimersAsync();
    await Promise.all(jobs);
    expect(createEngine.engines).toHaveLength(2);
  });
});

describe('idle shrink', () => {
  it('unloads engines beyond the first after idleTimeoutMs without work, and may grow again later', async () => {
    const { pool, createEngine } = fakePool({ reply: 'x y z', tokenMs: 10 }, { size: 2, idleTimeoutMs: 1000 });
    await pool.load();
    const burst = [pool.submit(chat('a', { task: 'a' })), pool.submit(chat('b', { task: 'b' }))];
    await vi.advanceTimersByTimeAsync(5);
    expect(pool.getSnapshot().running).toBe(2);
    await vi.advanceTimersByTimeAsync(45);
    await Promise.all(burst);
    expect(pool.getSnapshot().size).toBe(2);
    await vi.advanceTimersByTimeAsync(950);
    expect(pool.getSnapshot().size).toBe(2);
    await vi.advanceTimersByTimeAsync(100);
    expect(pool.getSnapshot().size).toBe(1);
    expect(createEngine.engines[1]?.unloaded).toBe(true);
    expect(createEngine.engines[0]?.unloaded).toBe(false);
    const again = [pool.submit(chat('a', { task: 'a' })), pool.submit(chat('b', { task: 'b' }))];
    await vi.advanceTimersByTimeAsync(50);
    await Promise.all(again);
    expect(pool.getSnapshot().size).toBe(2);
  });

  it('keeps a busy extra engine, and restarts the clock when it goes idle', async () => {
    const { pool } = fakePool({ reply: LONG, tokenMs: 100 }, { size: 2, idleTimeoutMs: 500 });
    await pool.load();
    pool.submit(chat('a', { task: 'a' }));
    const b = pool.submit(chat('b', { task: 'b' }));
    await vi.advanceTimersByTimeAsync(1000);
    expect(pool.getSnapshot().size).toBe(2);
    await vi.advanceTimersByTimeAsync(1100);
    await b;
    expect(pool.getSnapshot().size).toBe(2);
    await vi.advanceTimersByTimeAsync(600);
    expect(pool.getSnapshot().size).toBe(1);
  });

  it('never shrinks with idleTimeoutMs Infinity, and sets no timer for it', async () => {
    const setTimeout = vi.fn((callback: () => void, ms: number) => globalThis.setTimeout(callback, ms));
    const clearTimeout = vi.fn((handle: unknown) => globalThis.clearTimeout(handle as number));
    const { pool, createEngine } = fakePool(
      { reply: 'x y z', tokenMs: 10 },
      { size: 2, idleTimeoutMs: Infinity, timers: { setTimeout, clearTimeout } },
    );
    await pool.load();
    const burst = [pool.submit(chat('a', { task: 'a' })), pool.submit(chat('b', { task: 'b' }))];
    await vi.advanceTimersByTimeAsync(50);
    await Promise.all(burst);
    expect(pool.getSnapshot().size).toBe(2);
    await vi.advanceTimersByTimeAsync(24 * 3600 * 1000);
    expect(pool.getSnapshot().size).toBe(2);
    expect(createEngine.engines[1]?.unloaded).toBe(false);
    expect(setTimeout.mock.calls.filter(([, ms]) => ms === Infinity)).toEqual([]);
  });
});
