import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { InvalidJobError } from '../src/index.js';
import { chat, fakePool } from './helpers.js';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('a job owner', () => {
  it('shows in the snapshot while the job lives and in its record after', async () => {
    const { pool } = fakePool({ reply: 'a b', tokenMs: 10 });
    await pool.load();
    const job = pool.submit(chat('hi', { owner: 'tab-2' }));
    const bare = pool.submit(chat('ho'));
    expect(pool.getSnapshot().jobs.map((j) => j.owner)).toEqual(['tab-2', undefined]);
    expect('owner' in (pool.getSnapshot().jobs[1] ?? {})).toBe(false);
    await vi.runAllTimersAsync();
    await Promise.all([job, bare]);
    expect(pool.getSnapshot().recent.map((r) => r.owner)).toEqual(['tab-2', undefined]);
  });

  it('must be a non-empty string', async () => {
    const { pool } = fakePool();
    const result = await pool.submit(chat('hi', { owner: '' }));
    expect(result.error).toBeInstanceOf(InvalidJobError);
    expect(result.error?.message).toContain('"owner"');
  });
});
