import { describe, expect, it } from 'vitest';
import { EnginePool, SUPERSEDED } from '../src/index.js';
import { fakeEngines } from '../src/testing/index.js';

describe('an abort that says a newer request replaced the job', () => {
  it('ends the job superseded, not cancelled by abort, running or queued', async () => {
    const pool = new EnginePool({ createEngine: fakeEngines({ reply: 'a b c d e f g h', tokenMs: 5 }), size: 1 });
    await pool.load();
    const running = new AbortController();
    const queued = new AbortController();
    const first = pool.submit({ params: { messages: [{ role: 'user', content: 'one' }] }, signal: running.signal, onChunk: () => {} });
    const second = pool.submit({ params: { messages: [{ role: 'user', content: 'two' }] }, signal: queued.signal });
    await new Promise((resolve) => setTimeout(resolve, 12));
    running.abort(SUPERSEDED);
    queued.abort(SUPERSEDED);
    expect((await first).cancelReason).toBe('supersede');
    expect((await second).cancelReason).toBe('supersede');
    expect(pool.getSnapshot().recent.map((job) => job.cancelReason)).toEqual(['supersede', 'supersede']);
  });

  it('keeps a plain abort, and one aborted before submit, as abort', async () => {
    const pool = new EnginePool({ createEngine: fakeEngines({ reply: 'a b', tokenMs: 5 }), size: 1 });
    await pool.load();
    const plain = new AbortController();
    const job = pool.submit({ params: { messages: [{ role: 'user', content: 'one' }] }, signal: plain.signal });
    plain.abort();
    expect((await job).cancelReason).toBe('abort');
    const early = await pool.submit({ params: { messages: [{ role: 'user', content: 'x' }] }, signal: AbortSignal.abort(SUPERSEDED) });
    expect(early.cancelReason).toBe('supersede');
  });
});
