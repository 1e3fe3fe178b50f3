import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { EnginePool, InvalidOptionError } from '../src/index.js';
import { createFakeEngine } from '../src/testing/index.js';
import { chat, fakePool } from './helpers.js';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

const createEngine = async () => createFakeEngine();
const REPLY = 'one two three four five six seven eight nine ten';

/** Five preemptible batch items, then a keystroke's interactive job 15 ms later; their results. */
async function keystrokeDuringBatch(pool: EnginePool) {
  await pool.load();
  const items = Array.from({ length: 5 }, (_, i) => pool.submit(chat(`item ${i}`, { task: 'page', preemptible: true })));
  await vi.advanceTimersByTimeAsync(15);
  const ghost = pool.submit(chat('ghost', { session: 'ghost', priority: 'interactive' }));
  await vi.runAllTimersAsync();
  return { items: await Promise.all(items), ghost: await ghost };
}

describe("schedule: 'priority' | 'fifo'", () => {
  it("by default a keystroke's job starts before the queued batch and preempts the running item", async () => {
    const { pool } = fakePool({ reply: REPLY, tokenMs: 10 }, { size: 1 });
    expect(pool.schedule).toBe('priority');
    const { items, ghost } = await keystrokeDuringBatch(pool);
    expect(items[0]?.status).toBe('preempted');
    expect(ghost.status).toBe('done');
    // Started as soon as the preempted item gave its engine back: before any other item.
    expect(items.slice(1).every((item) => (item.startedAt ?? 0) >= (ghost.finishedAt ?? Infinity))).toBe(true);
  });

  it("with 'fifo' the keystroke waits behind every item queued before it, and nothing is preempted", async () => {
    const { pool } = fakePool({ reply: REPLY, tokenMs: 10 }, { size: 1, schedule: 'fifo' });
    expect(pool.schedule).toBe('fifo');
    const { items, ghost } = await keystrokeDuringBatch(pool);
    expect(items.map((item) => item.status)).toEqual(['done', 'done', 'done', 'done', 'done']);
    expect(ghost.startedAt).toBeGreaterThanOrEqual(Math.max(...items.map((item) => item.finishedAt)));
  });

  it("with 'fifo' bands do not reorder the queue", async () => {
    const { pool } = fakePool({ reply: 'ok' }, { size: 1, schedule: 'fifo' });
    await pool.load();
    const order: string[] = [];
    const submit = (id: string, priority: 'interactive' | 'high' | 'low') =>
      pool.submit(chat(id, { id, priority, task: 'same' })).then((result) => order.push(result.id));
    await Promise.all([submit('low', 'low'), submit('high', 'high'), submit('low-2', 'low'), submit('interactive', 'interactive')]);
    expect(order).toEqual(['low', 'high', 'low-2', 'interactive']);
  });

  it("with 'fifo' one batch may take every lane of a many-lane engine", async () => {
    const engine = createFakeEngine({ reply: REPLY, tokenMs: 10, concurrency: 4 });
    const pool = new EnginePool({ createEngine: async () => engine, size: 1, schedule: 'fifo' });
    await pool.load();
    const items = Array.from({ length: 4 }, (_, i) => pool.submit(chat(`item ${i}`, { task: 'page' })));
    await vi.advanceTimersByTimeAsync(5);
    expect(pool.getSnapshot().running).toBe(4);
    await vi.runAllTimersAsync();
    await Promise.all(items);
  });

  it('setSchedule switches the order of the jobs already queued', async () => {
    const { pool } = fakePool({ reply: REPLY, tokenMs: 10 }, { size: 1, schedule: 'fifo' });
    await pool.load();
    const items = Array.from({ length: 3 }, (_, i) => pool.submit(chat(`item ${i}`, { task: 'page', preemptible: true })));
    await vi.advanceTimersByTimeAsync(15);
    const ghost = pool.submit(chat('ghost', { priority: 'interactive' }));
    await vi.advanceTimersByTimeAsync(5);
    expect(pool.getSnapshot().queued).toBe(3);
    pool.setSchedule('priority');
    expect(pool.schedule).toBe('priority');
    await vi.runAllTimersAsync();
    const [first, second] = await Promise.all(items);
    expect(first?.status).toBe('preempted');
    expect((await ghost).finishedAt).toBeLessThanOrEqual(second?.startedAt ?? 0);
  });

  it('a wrong schedule is a typed error that names the choices, and leaves the pool as it was', async () => {
    expect(() => new EnginePool({ createEngine, schedule: 'lifo' as never })).toThrow(InvalidOptionError);
    expect(() => new EnginePool({ createEngine, schedule: 'lifo' as never })).toThrow(/schedule.*'priority' or 'fifo'/);
    const pool = new EnginePool({ createEngine });
    expect(() => pool.setSchedule('fast' as never)).toThrow(/'priority' or 'fifo'; it got "fast"/);
    expect(pool.schedule).toBe('priority');
  });
});
