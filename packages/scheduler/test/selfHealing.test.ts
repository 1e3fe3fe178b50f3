import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { EngineCrashedError, EngineError, EngineLoadError, EnginePool } from '../src/index.js';
import { fakeEngines } from '../src/testing/index.js';
import { chat, fakePool } from './helpers.js';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('self-healing', () => {
  it('replaces an engine that dies: the job on it gets the error, queued jobs wait and then run', async () => {
    const { pool, createEngine } = fakePool({ reply: 'a b c d', tokenMs: 10, loadMs: 50 }, { size: 1 });
    const loading = pool.load();
    await vi.advanceTimersByTimeAsync(50);
    await loading;
    const running = pool.submit(chat('x', { task: 't' }));
    const queued = [pool.submit(chat('y', { task: 't' })), pool.submit(chat('z', { task: 't' }))];
    await vi.advanceTimersByTimeAsync(15);
    createEngine.engines[0]!.die();
    const failed = await vi.waitFor(() => running);
    expect(failed.status).toBe('error');
    expect(failed.error).toBeInstanceOf(EngineCrashedError);
    expect(failed.text).toBe('a b');
    expect(pool.getSnapshot().engines[0]?.state).toBe('restarting');
    expect(pool.getSnapshot().queued).toBe(2);
    await vi.advanceTimersByTimeAsync(50);
    expect(createEngine.engines).toHaveLength(2);
    expect(createEngine.engines[0]?.unloaded).toBe(true);
    await vi.runAllTimersAsync();
    for (const job of queued) expect((await job).status).toBe('done');
  });

  it('treats an error marked fatal by an adapter as a death', async () => {
    const { pool, createEngine } = fakePool({ reply: 'a b c', tokenMs: 10 }, { size: 1 });
    await pool.load();
    createEngine.engines[0]!.failNext(Object.assign(new Error('Device lost'), { fatal: true }), { afterTokens: 1 });
    const job = pool.submit(chat('x'));
    await vi.runAllTimersAsync();
    const result = await job;
    expect(result.error?.message).toContain('Device lost');
    expect(createEngine.builds.get(0)).toBe(2);
    const next = pool.submit(chat('y'));
    await vi.runAllTimersAsync();
    expect((await next).status).toBe('done');
  });

  it('keeps an engine whose call fails for one job only', async () => {
    const { pool, createEngine } = fakePool({ reply: 'a b', tokenMs: 10 }, { size: 1 });
    await pool.load();
    createEngine.engines[0]!.failNext(new Error('prompt too long'));
    const result = await pool.submit(chat('x'));
    expect(result.status).toBe('error');
    expect(result.error).toBeInstanceOf(EngineError);
    expect(result.error?.cause).toBeInstanceOf(Error);
    const next = pool.submit(chat('y'));
    await vi.runAllTimersAsync();
    expect((await next).status).toBe('done');
    expect(createEngine.engines).toHaveLength(1);
  });

  it('does not feed the queue one job at a time to an engine that cannot be rebuilt', async () => {
    const createEngine = fakeEngines({
      reply: 'a b',
      tokenMs: 10,
      failLoad: (_index, attempt) => (attempt > 1 ? new Error('GPU gone') : undefined),
    });
    const pool = new EnginePool({ createEngine, size: 1 });
    await pool.load();
    const running = pool.submit(chat('x', { task: 't' }));
    const queued = Array.from({ length: 5 }, (_, i) => pool.submit(chat(`q${i}`, { task: 't' })));
    await vi.advanceTimersByTimeAsync(5);
    createEngine.engines[0]!.die();
    expect((await vi.waitFor(() => running)).status).toBe('error');
    await vi.advanceTimersByTimeAsync(10);
    const snapshot = pool.getSnapshot();
    expect(snapshot.phase).toBe('error');
    expect(snapshot.error).toBeInstanceOf(EngineLoadError);
    expect(snapshot.error?.message).toContain('GPU gone');
    // The queue is not fed to a broken engine item by item: it ends at once with the failure.
    expect(snapshot.queued).toBe(0);
    for (const result of await Promise.all(queued)) expect(result).toMatchObject({ status: 'error', error: snapshot.error });
    expect(createEngine.engines[0]!.calls).toHaveLength(1);
  });

  it('gives up on a slot that dies again and again without finishing a job', async () => {
    const { pool, createEngine } = fakePool({ reply: 'a b', tokenMs: 10 }, { size: 1 });
    await pool.load();
    for (let i = 0; i < 3; i += 1) {
      const job = pool.submit(chat(`x${i}`));
      await vi.advanceTimersByTimeAsync(1);
      createEngine.engines.at(-1)!.die();
      expect((await vi.waitFor(() => job)).status).toBe('error');
      await vi.advanceTimersByTimeAsync(1);
    }
    // Given up: a job now ends at once with why, instead of waiting for an engine.
    const refused = await pool.submit(chat('after'));
    expect(refused.status).toBe('error');
    expect(refused.error?.message).toMatch(/crashed 3 times in a row/);
    expect(createEngine.engines).toHaveLength(3);
    expect(pool.getSnapshot().queued).toBe(0);
    expect(pool.getSnapshot().phase).toBe('error');
    expect(pool.getSnapshot().error?.message).toMatch(/crashed 3 times in a row/);
    // load() starts over.
    await pool.load();
    expect(pool.getSnapshot().phase).toBe('ready');
    const waiting = pool.submit(chat('again'));
    await vi.runAllTimersAsync();
    expect((await waiting).status).toBe('done');
  });
});
