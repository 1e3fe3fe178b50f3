import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { EnginePool } from '../src/index.js';
import { createFakeEngine } from '../src/testing/index.js';
import { chat } from './helpers.js';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

const LONG = Array.from({ length: 30 }, (_, i) => `t${i}`).join(' ');

function serverPool(concurrency: number) {
  const engine = createFakeEngine({ reply: LONG, tokenMs: 10, concurrency });
  const pool = new EnginePool({ createEngine: async () => engine, size: 1 });
  return { engine, pool };
}

const runningOf = (pool: EnginePool, task: string) => pool.getSnapshot().jobs.filter((j) => j.task === task && j.state !== 'queued').length;

describe('engines with several lanes (a server)', () => {
  it('lets one batch use every lane but one, keeping the last for a task that is not running', async () => {
    const { pool } = serverPool(4);
    await pool.load();
    const items = Array.from({ length: 10 }, (_, i) => pool.submit(chat(`item ${i}`, { task: 'page' })));
    await vi.advanceTimersByTimeAsync(1);
    expect(runningOf(pool, 'page')).toBe(3);
    expect(pool.getSnapshot().engines[0]).toMatchObject({ concurrency: 4, state: 'busy' });
    // The kept lane goes to the ghost text at once, no preemption needed.
    const ghost = pool.submit(chat('ghost', { priority: 'interactive' }));
    await vi.advanceTimersByTimeAsync(1);
    expect(pool.getSnapshot().running).toBe(4);
    await vi.runAllTimersAsync();
    expect((await ghost).status).toBe('done');
    expect((await Promise.all(items)).every((r) => r.status === 'done')).toBe(true);
  });

  it('shares the lanes between two batches instead of letting the first take them all', async () => {
    const { pool } = serverPool(5);
    await pool.load();
    const a = Array.from({ length: 8 }, (_, i) => pool.submit(chat(`a${i}`, { task: 'a' })));
    await vi.advanceTimersByTimeAsync(1);
    expect(runningOf(pool, 'a')).toBe(4);
    const b = Array.from({ length: 8 }, (_, i) => pool.submit(chat(`b${i}`, { task: 'b' })));
    await vi.advanceTimersByTimeAsync(1);
    // The fifth lane is kept for interactive work: b waits for a lane a gives back.
    expect(runningOf(pool, 'b')).toBe(0);
    expect(pool.getSnapshot().size).toBe(1);
    // As a's jobs finish, lanes go to whichever task holds fewer.
    await vi.advanceTimersByTimeAsync(300);
    expect(runningOf(pool, 'b')).toBeGreaterThanOrEqual(runningOf(pool, 'a') - 1);
    await vi.runAllTimersAsync();
    await Promise.all([...a, ...b]);
  });

  it('cancels one lane through its signal without disturbing the others', async () => {
    const { pool, engine } = serverPool(3);
    await pool.load();
    const a = pool.submit(chat('a', { id: 'a', task: 'a' }));
    const b = pool.submit(chat('b', { id: 'b', task: 'b' }));
    await vi.advanceTimersByTimeAsync(25);
    pool.cancel('a');
    await vi.runAllTimersAsync();
    expect((await a).status).toBe('cancelled');
    expect(await b).toMatchObject({ status: 'done', finishReason: 'stop' });
    expect(engine.interrupts).toBe(0);
  });

  it('preempts one lane for an interactive job when all are taken', async () => {
    const { pool } = serverPool(3);
    await pool.load();
    const a = pool.submit(chat('a', { task: 'a', preemptible: true }));
    const b = pool.submit(chat('b', { task: 'b', preemptible: true }));
    // The third lane is kept for interactive work: one editor's ghost text takes it at once.
    const first = pool.submit(chat('g1', { priority: 'interactive', session: 'one' }));
    await vi.advanceTimersByTimeAsync(25);
    expect(pool.getSnapshot().running).toBe(3);
    const second = pool.submit(chat('g2', { priority: 'interactive', session: 'two' }));
    await vi.runAllTimersAsync();
    expect([(await a).status, (await b).status].toSorted()).toEqual(['done', 'preempted']);
    expect((await first).status).toBe('done');
    expect((await second).status).toBe('done');
  });
});

describe('preemption on an engine of several lanes', () => {
  it("hands the preempted job's lane to the interactive job in the same step, without waiting for the victim's last chunk", async () => {
    const engine = createFakeEngine({ reply: LONG, tokenMs: 50, concurrency: 3 });
    const pool = new EnginePool({ createEngine: async () => engine, size: 1 });
    await pool.load();
    const a = pool.submit(chat('a', { id: 'a', task: 'a', preemptible: true }));
    const b = pool.submit(chat('b', { id: 'b', task: 'b', preemptible: true }));
    const first = pool.submit(chat('g1', { priority: 'interactive', session: 'one' }));
    await vi.advanceTimersByTimeAsync(120);
    const calls = engine.calls.length;
    const typedAt = Date.now();
    const firsts: number[] = [];
    const second = pool.submit(chat('g2', { priority: 'interactive', session: 'two', onChunk: () => void firsts.push(Date.now()) }));
    // Started in the pump that preempted: the engine already has the call, one more than its lanes.
    expect(engine.calls).toHaveLength(calls + 1);
    expect(pool.getSnapshot().engines[0]!.jobs).toHaveLength(4);
    await vi.runAllTimersAsync();
    const [ra, rb, r1, r2] = await Promise.all([a, b, first, second]);
    const victim = [ra!, rb!].find((r) => r.status === 'preempted')!;
    expect(r2!.startedAt).toBe(r2!.submittedAt);
    expect(victim.finishedAt).toBeGreaterThan(r2!.startedAt!);
    // Its first token as soon as the victim's lane stops: within the step in flight.
    expect(firsts[0]! - typedAt).toBeLessThanOrEqual(50);
    expect([ra!.status, rb!.status].toSorted()).toEqual(['done', 'preempted']);
    expect([r1!.status, r2!.status]).toEqual(['done', 'done']);
    expect(pool.getSnapshot().engines[0]!.jobs).toHaveLength(0);
  });

  it('a second keystroke while the handed lane is still taken preempts another job rather than waiting', async () => {
    const engine = createFakeEngine({ reply: LONG, tokenMs: 50, concurrency: 3 });
    const pool = new EnginePool({ createEngine: async () => engine, size: 1 });
    await pool.load();
    const background = ['a', 'b'].map((task) => pool.submit(chat(task, { id: task, task, preemptible: true })));
    const ghosts = [pool.submit(chat('g1', { priority: 'interactive', session: 'one' }))];
    await vi.advanceTimersByTimeAsync(120);
    ghosts.push(pool.submit(chat('g2', { priority: 'interactive', session: 'two' })));
    ghosts.push(pool.submit(chat('g3', { priority: 'interactive', session: 'three' })));
    expect(pool.getSnapshot().queued).toBe(0);
    await vi.runAllTimersAsync();
    expect((await Promise.all(background)).map((r) => r.status)).toEqual(['preempted', 'preempted']);
    expect((await Promise.all(ghosts)).map((r) => r.status)).toEqual(['done', 'done', 'done']);
  });
});
