import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { chat, fakePool } from './helpers.js';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

const LONG = Array.from({ length: 40 }, (_, i) => `t${i}`).join(' ');
const reply = (request: { messages: Array<{ content: unknown }> }) => (request.messages[0]?.content === 'short' ? 'x' : LONG);

describe('opt-in preemption', () => {
  it('an interactive job with no free engine interrupts a preemptible one, which resolves with its partial text', async () => {
    const { pool } = fakePool({ reply: LONG, tokenMs: 10 }, { size: 1 });
    await pool.load();
    const batch = pool.submit(chat('translate', { task: 'page', preemptible: true }));
    await vi.advanceTimersByTimeAsync(35);
    const ghost = pool.submit(chat('ghost', { session: 'ghost', priority: 'interactive' }));
    const victim = await vi.waitFor(() => batch);
    expect(victim).toMatchObject({ status: 'preempted', finishReason: 'abort' });
    expect(victim.text.split(' ').filter(Boolean).length).toBeGreaterThanOrEqual(3);
    expect(victim.text.split(' ').filter(Boolean).length).toBeLessThan(40);
    await vi.runAllTimersAsync();
    expect((await ghost).status).toBe('done');
    // The pool never requeues a victim on its own.
    expect(pool.getSnapshot().jobs).toHaveLength(0);
  });

  it('does not touch a job that did not opt in', async () => {
    const { pool } = fakePool({ reply: 'a b c d e', tokenMs: 10 }, { size: 1 });
    await pool.load();
    const batch = pool.submit(chat('translate', { task: 'page' }));
    await vi.advanceTimersByTimeAsync(15);
    const ghost = pool.submit(chat('ghost', { priority: 'interactive' }));
    await vi.runAllTimersAsync();
    expect(await batch).toMatchObject({ status: 'done', text: 'a b c d e' });
    expect((await ghost).status).toBe('done');
  });

  it('only interactive jobs preempt', async () => {
    const { pool } = fakePool({ reply: 'a b c d e', tokenMs: 10 }, { size: 1 });
    await pool.load();
    const batch = pool.submit(chat('translate', { task: 'page', preemptible: true }));
    await vi.advanceTimersByTimeAsync(15);
    const chatReply = pool.submit(chat('question', { priority: 'high' }));
    await vi.runAllTimersAsync();
    expect((await batch).status).toBe('done');
    expect((await chatReply).status).toBe('done');
  });

  it('spares the batch while a superseded ghost-text job is already freeing its engine', async () => {
    const { pool } = fakePool({ reply, tokenMs: 10 }, { size: 2 });
    await pool.load();
    const batch = pool.submit(chat('translate', { task: 'page', preemptible: true }));
    // Another task waiting on the busy pool grows it to two engines.
    const other = pool.submit(chat('short', { task: 'other' }));
    await vi.advanceTimersByTimeAsync(5);
    expect((await other).status).toBe('done');
    expect(pool.getSnapshot().size).toBe(2);
    const first = pool.submit(chat('g1', { session: 'ghost', priority: 'interactive' }));
    await vi.advanceTimersByTimeAsync(25);
    expect(pool.getSnapshot().running).toBe(2);
    // The next keystroke supersedes g1; its engine frees within a step, so the batch is spared.
    const second = pool.submit(chat('g2', { session: 'ghost', priority: 'interactive' }));
    await vi.advanceTimersByTimeAsync(1);
    expect(pool.getSnapshot().jobs.find((j) => j.task === 'page')?.state).toBe('running');
    await vi.runAllTimersAsync();
    expect((await first).status).toBe('cancelled');
    expect((await second).status).toBe('done');
    expect((await batch).status).toBe('done');
  });

  it('preempts once for one waiting interactive job even when several jobs could be victims', async () => {
    const { pool } = fakePool({ reply: LONG, tokenMs: 10 }, { size: 2 });
    await pool.load();
    const a = pool.submit(chat('a', { task: 'a', preemptible: true }));
    const b = pool.submit(chat('b', { task: 'b', preemptible: true }));
    await vi.advanceTimersByTimeAsync(20);
    expect(pool.getSnapshot().running).toBe(2);
    const ghost = pool.submit(chat('g', { priority: 'interactive' }));
    pool.submit(chat('n', { priority: 'normal' })); // a later submit re-runs the pump
    await vi.runAllTimersAsync();
    const statuses = [(await a).status, (await b).status].toSorted();
    expect(statuses).toEqual(['done', 'preempted']);
    expect((await ghost).status).toBe('done');
  });

  it('picks the lowest band as the victim', async () => {
    const { pool } = fakePool({ reply: LONG, tokenMs: 10 }, { size: 2 });
    await pool.load();
    const normal = pool.submit(chat('n', { task: 'n', preemptible: true }));
    await vi.advanceTimersByTimeAsync(5);
    const low = pool.submit(chat('l', { task: 'l', preemptible: true, priority: 'low' }));
    await vi.advanceTimersByTimeAsync(20);
    expect(pool.getSnapshot().running).toBe(2);
    const ghost = pool.submit(chat('g', { priority: 'interactive' }));
    await vi.runAllTimersAsync();
    expect((await low).status).toBe('preempted');
    expect((await normal).status).toBe('done');
    expect((await ghost).status).toBe('done');
  });

  it('a job cancelled while being preempted reports the cancel', async () => {
    const { pool } = fakePool({ reply: LONG, tokenMs: 10 }, { size: 1 });
    await pool.load();
    const batch = pool.submit(chat('translate', { id: 'b', task: 'page', preemptible: true }));
    await vi.advanceTimersByTimeAsync(15);
    pool.submit(chat('ghost', { priority: 'interactive' }));
    pool.cancel('b');
    await vi.runAllTimersAsync();
    expect(await batch).toMatchObject({ status: 'cancelled', cancelReason: 'cancel' });
  });
});
