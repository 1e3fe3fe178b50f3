// @vitest-environment node
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { retainPool } from '../../src/base/core/poolLease.js';
import { fakePool } from './helpers.js';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('retainPool', () => {
  it('loads once however many hold the pool, and a quick release and retain changes nothing', async () => {
    const { pool, createEngine } = fakePool({ loadMs: 100 });
    const first = retainPool(pool);
    first(); // StrictMode's rehearsal
    const second = retainPool(pool);
    const third = retainPool(pool);
    await vi.runAllTimersAsync();
    expect(createEngine.builds.get(0)).toBe(1);
    expect(pool.getSnapshot().phase).toBe('ready');
    second();
    third();
    expect(pool.getSnapshot().phase).toBe('ready');
  });

  it('unloads a pool it loaded some time after the last holder lets go', async () => {
    const { pool } = fakePool();
    const release = retainPool(pool, { unloadDelayMs: 500 });
    await vi.runAllTimersAsync();
    release();
    await vi.advanceTimersByTimeAsync(499);
    expect(pool.getSnapshot().phase).toBe('ready');
    await vi.advanceTimersByTimeAsync(1);
    expect(pool.getSnapshot().phase).toBe('idle');
  });

  it('keeps the pool when a holder arrives within the delay, and counts a release called twice once', async () => {
    const { pool, createEngine } = fakePool();
    const first = retainPool(pool, { unloadDelayMs: 500 });
    await vi.runAllTimersAsync();
    first();
    await vi.advanceTimersByTimeAsync(400);
    const second = retainPool(pool, { unloadDelayMs: 500 });
    const third = retainPool(pool, { unloadDelayMs: 500 });
    second();
    second();
    await vi.advanceTimersByTimeAsync(1000);
    expect(pool.getSnapshot().phase).toBe('ready');
    expect(createEngine.builds.get(0)).toBe(1);
    third();
    await vi.advanceTimersByTimeAsync(500);
    expect(pool.getSnapshot().phase).toBe('idle');
  });

  it('never unloads a pool it was not asked to load, nor with an infinite delay', async () => {
    const { pool } = fakePool();
    await pool.load();
    retainPool(pool, { load: false })();
    await vi.runAllTimersAsync();
    expect(pool.getSnapshot().phase).toBe('ready');
    retainPool(pool, { unloadDelayMs: Number.POSITIVE_INFINITY })();
    await vi.runAllTimersAsync();
    expect(pool.getSnapshot().phase).toBe('ready');
  });

  it('runs its delayed unload on the timers it is given', async () => {
    const { pool } = fakePool();
    const pending: Array<{ callback: () => void; ms: number }> = [];
    const timers = {
      setTimeout: (callback: () => void, ms: number) => pending.push({ callback, ms }),
      clearTimeout: (handle: unknown) => pending.splice(Number(handle) - 1, 1),
    };
    const release = retainPool(pool, { unloadDelayMs: 250, timers });
    await vi.runAllTimersAsync();
    release();
    expect(pending.map((timer) => timer.ms)).toEqual([250]);
    await vi.runAllTimersAsync();
    expect(pool.getSnapshot().phase).toBe('ready');
    pending[0]?.callback();
    await vi.runAllTimersAsync();
    expect(pool.getSnapshot().phase).toBe('idle');
  });

  it('turns a failed load into pool state, not an unhandled rejection', async () => {
    const { pool } = fakePool({ failLoad: () => new Error('no WebGPU adapter') });
    retainPool(pool);
    await vi.runAllTimersAsync();
    expect(pool.getSnapshot().phase).toBe('error');
    expect(pool.getSnapshot().error?.message).toContain('no WebGPU adapter');
  });
});
