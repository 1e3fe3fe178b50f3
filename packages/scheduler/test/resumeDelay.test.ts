import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { InvalidOptionError } from '../src/index.js';
import { EnginePool } from '../src/index.js';
import { engineCalls, fakeEngines } from '../src/testing/index.js';
import { chat, fakePool } from './helpers.js';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

const LONG = Array.from({ length: 40 }, (_, i) => `t${i}`).join(' ');

/** The order the engine's real calls came in, by their prompt. */
const order = (createEngine: Parameters<typeof engineCalls>[0]) =>
  engineCalls(createEngine).map((call) => (call.request as { messages: Array<{ content: string }> }).messages[0]!.content);

/** Runs fake time a millisecond at a time until `promise` settles. */
async function settle<T>(promise: Promise<T>): Promise<T> {
  const state = { done: false };
  void promise.then(() => (state.done = true));
  while (!state.done) await vi.advanceTimersByTimeAsync(1);
  return promise;
}

/** A batch that resubmits each item it loses to preemption, as useBatchTranslate does. */
function batch(pool: EnginePool, items: number) {
  const statuses: string[] = [];
  const run = (async () => {
    for (let i = 0; i < items; i += 1) {
      for (;;) {
        const result = await pool.submit(chat(`item${i}`, { task: 'page', preemptible: true }));
        statuses.push(result.status);
        if (result.status !== 'preempted') break;
      }
    }
  })();
  return { statuses, run };
}

describe('a preempted batch waits while interactive work goes on (resumeDelayMs)', () => {
  it('keystroke after keystroke finds the engine free; the batch resumes once typing pauses, and finishes', async () => {
    const { pool, createEngine } = fakePool({ reply: LONG, tokenMs: 10 }, { size: 1 });
    await pool.load();
    const page = batch(pool, 2);
    await vi.advanceTimersByTimeAsync(35);
    const waits: number[] = [];
    for (let k = 0; k < 4; k += 1) {
      const ghost = await settle(
        pool.submit(
          chat(`ghost${k}`, {
            session: 'ghost',
            priority: 'interactive',
            params: { messages: [{ role: 'user', content: `ghost${k}` }], max_tokens: 2 },
          }),
        ),
      );
      expect(ghost.status).toBe('done');
      waits.push(ghost.startedAt! - ghost.submittedAt);
      await vi.advanceTimersByTimeAsync(200); // the person's next keystroke, well inside the delay
    }
    // Only the first keystroke had to take the engine from the batch.
    expect(waits.slice(1)).toEqual([0, 0, 0]);
    expect(order(createEngine).slice(0, 5)).toEqual(['item0', 'ghost0', 'ghost1', 'ghost2', 'ghost3']);
    await vi.advanceTimersByTimeAsync(5_000);
    await settle(page.run);
    expect(page.statuses).toEqual(['preempted', 'done', 'done']);
    expect(order(createEngine).slice(5)).toEqual(['item0', 'item1']);
  });

  it('the batch waits only the delay after the last interactive job, counted from its end', async () => {
    const { pool, createEngine } = fakePool({ reply: LONG, tokenMs: 10 }, { size: 1, resumeDelayMs: 300 });
    await pool.load();
    const page = batch(pool, 1);
    await vi.advanceTimersByTimeAsync(35);
    const ghost = await settle(pool.submit(chat('ghost', { session: 'ghost', priority: 'interactive' })));
    await vi.advanceTimersByTimeAsync(290);
    expect(order(createEngine)).toEqual(['item0', 'ghost']);
    await vi.advanceTimersByTimeAsync(20);
    expect(order(createEngine)).toEqual(['item0', 'ghost', 'item0']);
    const restarted = engineCalls(createEngine).at(-1)!;
    expect(restarted.state).not.toBe('done');
    expect(ghost.finishedAt).toBeGreaterThan(0);
    await settle(page.run);
  });

  it('holds only the task it preempted: other work (a speculative suggestion) starts at once', async () => {
    const { pool, createEngine } = fakePool({ reply: LONG, tokenMs: 10 }, { size: 1 });
    await pool.load();
    const page = batch(pool, 1);
    await vi.advanceTimersByTimeAsync(35);
    await settle(pool.submit(chat('ghost', { session: 'ghost', priority: 'interactive' })));
    const next = await settle(pool.submit(chat('next', { session: 'ghost:next', priority: 'low', preemptible: true })));
    expect(next.startedAt! - next.submittedAt).toBe(0);
    expect(order(createEngine)).toEqual(['item0', 'ghost', 'next']);
    await settle(page.run);
  });

  it('0 restarts the batch between two keystrokes, as before', async () => {
    const { pool, createEngine } = fakePool({ reply: LONG, tokenMs: 10 }, { size: 1, resumeDelayMs: 0 });
    await pool.load();
    const page = batch(pool, 1);
    await vi.advanceTimersByTimeAsync(35);
    await settle(pool.submit(chat('ghost0', { session: 'ghost', priority: 'interactive' })));
    await vi.advanceTimersByTimeAsync(100);
    const second = await settle(pool.submit(chat('ghost1', { session: 'ghost', priority: 'interactive' })));
    expect(order(createEngine).slice(0, 4)).toEqual(['item0', 'ghost0', 'item0', 'ghost1']);
    expect(second.startedAt! - second.submittedAt).toBeGreaterThan(0);
    await settle(page.run);
  });

  it('another engine takes the held task meanwhile', async () => {
    const createEngine = fakeEngines({ reply: LONG, tokenMs: 10 });
    const pool = new EnginePool({ createEngine, size: 2 });
    await pool.load();
    const page = batch(pool, 1);
    // A second task on the busy pool grows it; both engines are then busy.
    const other = pool.submit(chat('other', { task: 'other' }));
    await vi.advanceTimersByTimeAsync(100);
    expect(pool.getSnapshot().running).toBe(2);
    const results: Array<Awaited<ReturnType<EnginePool['submit']>>> = [];
    for (let k = 0; k < 5; k += 1) {
      results.push(await settle(pool.submit(chat(`ghost${k}`, { session: 'ghost', priority: 'interactive' }))));
      await vi.advanceTimersByTimeAsync(200);
    }
    expect((await other).status).toBe('done');
    const ghostEngine = results[0]!.engineIndex;
    // The batch's item restarted on the engine 'other' left, while the person kept typing on theirs.
    const restarted =
      pool.getSnapshot().jobs.find((job) => job.task === 'page') ?? pool.getSnapshot().recent.findLast((job) => job.task === 'page');
    expect(restarted?.engineIndex).not.toBe(ghostEngine);
    expect(results.slice(1).every((r) => r.startedAt === r.submittedAt && r.engineIndex === ghostEngine)).toBe(true);
    await settle(page.run);
    expect(page.statuses).toEqual(['preempted', 'done']);
  });

  it('is checked when the pool is built', () => {
    const createEngine = fakeEngines();
    expect(() => new EnginePool({ createEngine, resumeDelayMs: -1 })).toThrow(InvalidOptionError);
    expect(() => new EnginePool({ createEngine, resumeDelayMs: Infinity })).toThrow(/resumeDelayMs/);
  });
});
