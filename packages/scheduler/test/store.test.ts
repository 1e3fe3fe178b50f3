import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { chat, fakePool } from './helpers.js';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('the external store', () => {
  it('returns the same snapshot until something changes', async () => {
    const { pool } = fakePool();
    const first = pool.getSnapshot();
    expect(pool.getSnapshot()).toBe(first);
    await pool.load();
    const loaded = pool.getSnapshot();
    expect(loaded).not.toBe(first);
    expect(loaded.phase).toBe('ready');
    expect(pool.getSnapshot()).toBe(loaded);
  });

  it('batches a burst of changes into one notification', async () => {
    const { pool } = fakePool({ reply: 'a b c' });
    await pool.load();
    await vi.advanceTimersByTimeAsync(0);
    const listener = vi.fn();
    pool.subscribe(listener);
    for (let i = 0; i < 10; i += 1) pool.submit(chat(`q${i}`, { task: 'same', priority: 'low' }));
    expect(listener).not.toHaveBeenCalled();
    await Promise.resolve();
    await Promise.resolve();
    expect(listener.mock.calls.length).toBeLessThanOrEqual(2);
  });

  it('notifies once per scheduled flush however many chunks arrive, with an injected scheduler', async () => {
    const flushes: Array<() => void> = [];
    const { pool } = fakePool({ reply: Array.from({ length: 50 }, () => 'w').join(' ') }, { scheduleNotify: (f) => flushes.push(f) });
    await pool.load();
    const listener = vi.fn();
    pool.subscribe(listener);
    await pool.submit(chat('x'));
    expect(flushes.length).toBe(1);
    flushes.shift()!();
    expect(listener).toHaveBeenCalledTimes(1);
  });

  it('stops calling a listener once it unsubscribes', async () => {
    const { pool } = fakePool();
    const listener = vi.fn();
    const unsubscribe = pool.subscribe(listener);
    unsubscribe();
    await pool.load();
    await vi.advanceTimersByTimeAsync(0);
    expect(listener).not.toHaveBeenCalled();
  });

  it('keeps calling onStateChange with the snapshot', async () => {
    const onStateChange = vi.fn();
    const { pool } = fakePool({}, { onStateChange });
    await pool.load();
    await vi.advanceTimersByTimeAsync(0);
    expect(onStateChange).toHaveBeenLastCalledWith(pool.getSnapshot());
    expect(onStateChange.mock.lastCall?.[0]).toMatchObject({ phase: 'ready', size: 1, maxSize: 2, queued: 0, busy: 0 });
  });

  it('shows live jobs with their state, engine and tokens, and keeps a bounded history', async () => {
    const { pool } = fakePool({ reply: 'a b c d', tokenMs: 10 }, { size: 1, historySize: 2 });
    await pool.load();
    pool.submit(chat('x', { id: 'one', task: 't', session: 's1' }));
    pool.submit(chat('y', { id: 'two', task: 't', priority: 'high' }));
    await vi.advanceTimersByTimeAsync(15);
    const snapshot = pool.getSnapshot();
    expect(snapshot.jobs.map((j) => [j.id, j.state])).toEqual([
      ['one', 'running'],
      ['two', 'queued'],
    ]);
    expect(snapshot.jobs[0]).toMatchObject({ engineIndex: 0, tokens: 2, session: 's1' });
    expect(snapshot.queuedByPriority).toEqual({ interactive: 0, high: 1, normal: 0, low: 0 });
    expect(snapshot.engines).toEqual([{ index: 0, state: 'busy', concurrency: 1, jobs: ['one'] }]);
    pool.submit(chat('z', { id: 'three', task: 't' }));
    await vi.runAllTimersAsync();
    expect(pool.getSnapshot().recent.map((r) => r.id)).toEqual(['two', 'three']);
    expect(pool.getSnapshot().recent[1]).toMatchObject({ status: 'done', tokens: 4 });
  });

  it('a throwing listener does not silence the others', async () => {
    const { pool } = fakePool();
    const errors: unknown[] = [];
    const original = globalThis.reportError;
    globalThis.reportError = (e: unknown) => errors.push(e);
    const good = vi.fn();
    pool.subscribe(() => {
      throw new Error('listener bug');
    });
    pool.subscribe(good);
    try {
      await pool.load();
      await vi.advanceTimersByTimeAsync(0);
    } finally {
      globalThis.reportError = original;
    }
    expect(good).toHaveBeenCalled();
    expect(errors).toHaveLength(good.mock.calls.length);
    expect(errors[0]).toMatchObject({ message: 'listener bug' });
  });
});
