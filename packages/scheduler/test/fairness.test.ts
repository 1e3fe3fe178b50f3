import { describe, expect, it } from 'vitest';
import { EnginePool } from '../src/index.js';
import { fairer } from '../src/ownerShares.js';
import { createFakeEngine, fakeEngines } from '../src/testing/index.js';
import { chat } from './helpers.js';

/** Submits jobs and records the order in which they start. */
function starts(pool: EnginePool) {
  const order: string[] = [];
  const submit = (id: string, extra: Parameters<typeof chat>[1] = {}) =>
    pool.submit(chat(id, { id, ...extra, onChunk: () => (order.includes(id) ? undefined : order.push(id)) }));
  return { order, submit };
}

const key = (ownerLanes: number, turn: number, taskLanes: number) => ({ ownerLanes, turn, taskLanes });

describe('fair shares between owners within a band', () => {
  it("lets another owner's one job start next, not behind 300 of one owner's (one task or one task each)", async () => {
    for (const sameTask of [true, false]) {
      const engine = createFakeEngine({ reply: 'ok' });
      const pool = new EnginePool({ createEngine: async () => engine, size: 1 });
      await pool.load();
      const { order, submit } = starts(pool);
      const flood = Array.from({ length: 300 }, (_, i) => submit(`a${i}`, { owner: 'tab-a', ...(sameTask && { task: 'page' }) }));
      const other = submit('b0', { owner: 'tab-b' });
      await Promise.all([...flood, other]);
      expect(order.indexOf('b0')).toBe(1);
      // Tab A's own jobs keep their order.
      expect(order.filter((id) => id !== 'b0')).toEqual(Array.from({ length: 300 }, (_, i) => `a${i}`));
    }
  });

  it('takes turns between owners that both keep work queued, and never lets fairness jump a band', async () => {
    const engine = createFakeEngine({ reply: 'ok' });
    const pool = new EnginePool({ createEngine: async () => engine, size: 1 });
    await pool.load();
    const { order, submit } = starts(pool);
    const jobs = [
      ...['a1', 'a2', 'a3'].map((id) => submit(id, { owner: 'a', task: 'page' })),
      ...['b1', 'b2', 'b3'].map((id) => submit(id, { owner: 'b', task: 'page' })),
      submit('c-low', { owner: 'c', priority: 'low' }),
      submit('c-high', { owner: 'c', priority: 'high' }),
    ];
    await Promise.all(jobs);
    expect(order).toEqual(['a1', 'c-high', 'b1', 'a2', 'b2', 'a3', 'b3', 'c-low']);
  });

  it("shares a many-lane engine's lanes between owners before tasks", async () => {
    const pool = new EnginePool({ createEngine: fakeEngines({ reply: 'a b c d', tokenMs: 1, concurrency: 5 }), size: 1 });
    const { order, submit } = starts(pool);
    // Queued before the engine is up, so four lanes are handed out at once (the fifth is kept for interactive work).
    const jobs = [
      ...Array.from({ length: 6 }, (_, i) => submit(`a${i}`, { owner: 'a' })),
      ...Array.from({ length: 2 }, (_, i) => submit(`b${i}`, { owner: 'b' })),
    ];
    await pool.load();
    const running = pool.getSnapshot().jobs.filter((j) => j.state === 'running');
    expect(running.map((j) => j.owner).toSorted()).toEqual(['a', 'a', 'b', 'b']);
    await Promise.all(jobs);
    expect(order).toHaveLength(8);
  });

  it('orders by lanes held, then turn, then task lanes; ties keep FIFO', () => {
    expect(fairer(key(0, 9, 3), key(1, -1, 0))).toBe(true);
    expect(fairer(key(1, 2, 3), key(1, 5, 0))).toBe(true);
    expect(fairer(key(1, 5, 0), key(1, 5, 1))).toBe(true);
    expect(fairer(key(1, 5, 1), key(1, 5, 1))).toBe(false);
  });
});
