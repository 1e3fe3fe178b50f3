// @vitest-environment node
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { StreamedJob } from '../../src/base/core/streamedJob.js';
import { fakePool, words } from './helpers.js';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

const params = { messages: [{ role: 'user' as const, content: 'go' }] };

describe('StreamedJob', () => {
  it('hears only the current job: a replaced one neither streams nor ends, though its onFinish still runs', async () => {
    const { pool } = fakePool({ reply: words(6), tokenMs: 10 }, { size: 2 });
    await pool.load();
    const job = new StreamedJob();
    const heard: string[] = [];
    const finished: string[] = [];
    const first = job.start(
      pool,
      { params },
      { onText: (t) => heard.push(`1:${t}`), onEnd: () => heard.push('1:end'), onFinish: (r) => finished.push(`1:${r.status}`) },
    );
    await vi.advanceTimersByTimeAsync(15);
    const second = job.start(pool, { params }, { onText: (t) => heard.push(`2:${t}`), onEnd: (r) => heard.push(`2:end:${r.status}`) });
    await vi.runAllTimersAsync();
    expect((await first).status).toBe('cancelled');
    expect((await second).status).toBe('done');
    const afterReplace = heard.slice(heard.findIndex((h) => h.startsWith('2:')));
    expect(afterReplace.every((h) => h.startsWith('2:'))).toBe(true);
    expect(heard).not.toContain('1:end');
    expect(heard.at(-1)).toBe('2:end:done');
    expect(finished).toEqual(['1:cancelled']);
  });

  it('stop() says whether a job was running; after the end there is none', async () => {
    const { pool } = fakePool({ reply: words(3), tokenMs: 10 });
    await pool.load();
    const job = new StreamedJob();
    expect(job.stop()).toBe(false);
    const onEnd = vi.fn();
    const result = job.start(pool, { params }, { onText: () => {}, onEnd });
    expect(job.running).toBe(true);
    await vi.runAllTimersAsync();
    await result;
    expect(onEnd).toHaveBeenCalledTimes(1);
    expect(job.running).toBe(false);
    expect(job.stop()).toBe(false);
  });

  it('a job of the same session is superseded by the next (the pool counts it so), not aborted', async () => {
    const { pool } = fakePool({ reply: words(6), tokenMs: 10 });
    await pool.load();
    const job = new StreamedJob();
    const heard: string[] = [];
    const first = job.start(pool, { session: 'notes', params }, { onText: (t) => heard.push(`1:${t}`), onEnd: () => heard.push('1:end') });
    await vi.advanceTimersByTimeAsync(15);
    const second = job.start(pool, { session: 'notes', params }, { onText: () => {}, onEnd: () => {} });
    const other = job.start(pool, { session: 'elsewhere', params }, { onText: () => {}, onEnd: () => {} });
    await vi.runAllTimersAsync();
    expect(await first).toMatchObject({ status: 'cancelled', cancelReason: 'supersede' });
    // Another session is not the pool's to supersede: the job is aborted.
    expect(await second).toMatchObject({ status: 'cancelled', cancelReason: 'abort' });
    expect((await other).status).toBe('done');
    expect(heard).not.toContain('1:end');
  });
});
