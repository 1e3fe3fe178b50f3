import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { chat, fakePool } from './helpers.js';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('session supersession', () => {
  it('drops a queued job when a newer one of the same session arrives', async () => {
    const { pool } = fakePool({ reply: 'a b c', tokenMs: 10 }, { size: 1 });
    await pool.load();
    const busy = pool.submit(chat('busy', { task: 'batch' }));
    const first = pool.submit(chat('first', { session: 'ghost', task: 'batch' }));
    const second = pool.submit(chat('second', { session: 'ghost', task: 'batch' }));
    expect(await first).toMatchObject({ status: 'cancelled', cancelReason: 'supersede', finishReason: 'abort' });
    expect((await first).engineIndex).toBeUndefined();
    await vi.runAllTimersAsync();
    expect(await second).toMatchObject({ status: 'done', text: 'a b c' });
    await busy;
  });

  it('interrupts a running job of the same session, which resolves cancelled with its partial text', async () => {
    const { pool, createEngine } = fakePool({ reply: 'one two three four five six', prefillMs: 20, tokenMs: 20 }, { size: 1 });
    await pool.load();
    const first = pool.submit(
      chat('first', { session: 'ghost', priority: 'interactive', params: { messages: [{ role: 'user', content: 'x' }], max_tokens: 6 } }),
    );
    await vi.advanceTimersByTimeAsync(45); // prefill, first token, second token
    const second = pool.submit(chat('second', { session: 'ghost', priority: 'interactive' }));
    const r1 = await vi.waitFor(() => first, { timeout: 1000 });
    await vi.advanceTimersByTimeAsync(100);
    expect(r1.status).toBe('cancelled');
    expect(r1.cancelReason).toBe('supersede');
    expect(r1.text).toBe('one two');
    const engine = createEngine.engines[0]!;
    // The superseded generation stopped after the decode step in flight, not at max_tokens.
    expect(engine.calls[0]).toMatchObject({ finishReason: 'abort', tokens: 3, tokensAfterInterrupt: 1 });
    await vi.runAllTimersAsync();
    expect(await second).toMatchObject({ status: 'done' });
  });

  it("shows only the newest keystroke's job as running during fast typing", async () => {
    const { pool } = fakePool({ reply: 'x y z', prefillMs: 30, tokenMs: 15 }, { size: 1 });
    await pool.load();
    const results = [];
    for (let i = 0; i < 8; i += 1) {
      results.push(pool.submit(chat(`text ${i}`, { session: 'ghost', priority: 'interactive' })));
      await vi.advanceTimersByTimeAsync(10);
      const live = pool.getSnapshot().jobs.filter((j) => j.state !== 'cancelling');
      expect(live.map((j) => j.id)).toHaveLength(1);
    }
    await vi.runAllTimersAsync();
    const settled = await Promise.all(results);
    expect(settled.slice(0, -1).every((r) => r.status === 'cancelled')).toBe(true);
    expect(settled.at(-1)).toMatchObject({ status: 'done', text: 'x y z' });
  });

  it('leaves jobs of other sessions alone', async () => {
    const { pool } = fakePool({ reply: 'ok', tokenMs: 5 }, { size: 1 });
    await pool.load();
    const a = pool.submit(chat('a', { session: 'editor-a', task: 't' }));
    const b = pool.submit(chat('b', { session: 'editor-b', task: 't' }));
    await vi.runAllTimersAsync();
    expect((await a).status).toBe('done');
    expect((await b).status).toBe('done');
  });

  it('a superseded job still draining on a healthy engine neither grows the pool nor delays its caller', async () => {
    const { pool, createEngine } = fakePool({ reply: 'one two three four five six', prefillMs: 20, tokenMs: 20 }, { size: 2 });
    await pool.load();
    const first = pool.submit(chat('a', { session: 'ghost', priority: 'interactive' }));
    await vi.advanceTimersByTimeAsync(45);
    const second = pool.submit(chat('b', { session: 'ghost', priority: 'interactive' }));
    // Settled at once, while the engine finishes the decode step in flight.
    expect(await Promise.race([first, Promise.resolve('pending')])).toMatchObject({ status: 'cancelled', text: 'one two' });
    expect(pool.getSnapshot()).toMatchObject({ running: 0, busy: 1, growing: false });
    await vi.runAllTimersAsync();
    expect(await second).toMatchObject({ status: 'done', engineIndex: 0 });
    expect(createEngine.engines).toHaveLength(1);
  });
});
