import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { EngineCrashedError, EnginePool } from '../src/index.js';
// Not exported yet (@inkling/react re-exports every export and must follow); its `name` tells it apart.
import { EngineStalledError } from '../src/errors.js';
import type { ChatCompletionChunk } from '../src/index.js';
import { createFakeEngine, fakeEngines } from '../src/testing/index.js';
import { chat } from './helpers.js';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

const LONG = Array.from({ length: 40 }, (_, i) => `w${i}`).join(' ');

/** Resolves with the job's result if it has settled by now, else `'pending'`. */
async function settled<T>(promise: Promise<T>): Promise<T | 'pending'> {
  return Promise.race([promise, new Promise<'pending'>((resolve) => queueMicrotask(() => queueMicrotask(() => resolve('pending'))))]);
}

function wedgedPool(stallTimeoutMs: number, size = 1) {
  const createEngine = fakeEngines({ reply: LONG, tokenMs: 10 });
  const pool = new EnginePool({ createEngine, size, stallTimeoutMs });
  return { pool, createEngine };
}

describe('a wedged engine never holds a caller hostage', () => {
  it('cancel() settles a job whose create() never answers at once; the lane stays taken until the engine is replaced', async () => {
    const { pool, createEngine } = wedgedPool(1000);
    await pool.load();
    createEngine.engines[0]!.hangNext();
    const job = pool.submit(chat('x', { id: 'stuck', task: 't' }));
    const next = pool.submit(chat('y', { id: 'next', task: 't' }));
    await vi.advanceTimersByTimeAsync(50);
    expect(pool.cancel('stuck')).toBe(1);
    expect(await settled(job)).toMatchObject({ status: 'cancelled', cancelReason: 'cancel', text: '', finishReason: 'abort' });
    // Settled, yet its lane is still taken: the engine has not answered.
    const snapshot = pool.getSnapshot();
    expect(snapshot.engines[0]).toMatchObject({ state: 'busy', jobs: ['stuck'] });
    expect(snapshot.jobs.map((j) => [j.id, j.state])).toEqual([['next', 'queued']]);
    expect(snapshot).toMatchObject({ running: 0, busy: 1 });
    await vi.advanceTimersByTimeAsync(990);
    expect(createEngine.engines).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(20);
    // Silent for stallTimeoutMs after the stop: taken for dead and replaced.
    expect(createEngine.engines).toHaveLength(2);
    expect(createEngine.engines[0]!.unloaded).toBe(true);
    await vi.runAllTimersAsync();
    expect(await next).toMatchObject({ status: 'done', text: LONG, engineIndex: 0 });
  });

  it('a stream that stops yielding and ignores interrupts: the job settles with its text so far, later chunks go nowhere', async () => {
    const { pool, createEngine } = wedgedPool(500);
    await pool.load();
    const engine = createEngine.engines[0]!;
    engine.hangNext({ afterTokens: 3 });
    const seen: string[] = [];
    const onChunk = (chunk: ChatCompletionChunk) => seen.push(chunk.choices[0]?.delta.content ?? '');
    const job = pool.submit(chat('x', { id: 'a', onChunk }));
    await vi.advanceTimersByTimeAsync(100);
    expect(engine.calls[0]).toMatchObject({ state: 'hung', tokens: 3 });
    pool.cancel('a');
    expect(await settled(job)).toMatchObject({ status: 'cancelled', text: 'w0 w1 w2' });
    expect(engine.interrupts).toBe(1);
    const delivered = seen.length;
    await vi.advanceTimersByTimeAsync(600);
    expect(seen).toHaveLength(delivered);
    expect(createEngine.engines).toHaveLength(2);
    expect(pool.getSnapshot().engines[0]).toMatchObject({ state: 'idle', jobs: [] });
    const after = pool.submit(chat('y'));
    await vi.runAllTimersAsync();
    expect((await after).status).toBe('done');
  });

  it('an embeddings.create() that never answers: the cancelled job settles at once, and the engine is replaced', async () => {
    const { pool, createEngine } = wedgedPool(300);
    await pool.load();
    createEngine.engines[0]!.hangNext();
    const job = pool.submit({ id: 'e', kind: 'embedding', params: { input: ['a', 'b'] } });
    await vi.advanceTimersByTimeAsync(10);
    expect(createEngine.engines[0]!.calls[0]?.state).toBe('hung');
    pool.cancel('e');
    expect(await settled(job)).toMatchObject({ status: 'cancelled' });
    await vi.advanceTimersByTimeAsync(301);
    expect(createEngine.engines).toHaveLength(2);
    const next = pool.submit({ kind: 'embedding', params: { input: 'c' } });
    await vi.runAllTimersAsync();
    expect((await next).embeddings).toHaveLength(1);
  });

  it('an abort signal, supersession and unload() settle a wedged job at once too', async () => {
    const { pool, createEngine } = wedgedPool(Infinity, 1);
    await pool.load();
    const engine = createEngine.engines[0]!;
    engine.hangNext({ afterTokens: 1 });
    const controller = new AbortController();
    const aborted = pool.submit(chat('a', { signal: controller.signal, session: 's1', task: 't' }));
    const superseded = pool.submit(chat('b', { session: 's2', task: 't' }));
    const unloaded = pool.submit(chat('c', { task: 't' }));
    await vi.advanceTimersByTimeAsync(20);
    controller.abort();
    expect(await settled(aborted)).toMatchObject({ status: 'cancelled', cancelReason: 'abort', text: 'w0' });
    pool.submit(chat('b2', { session: 's2', task: 't' }));
    expect(await settled(superseded)).toMatchObject({ status: 'cancelled', cancelReason: 'supersede', text: '' });
    await pool.unload();
    expect(await settled(unloaded)).toMatchObject({ status: 'cancelled', cancelReason: 'unload' });
    expect(engine.unloaded).toBe(true);
    expect(pool.getSnapshot()).toMatchObject({ size: 0, running: 0, queued: 0 });
  });

  it('an engine that keeps streaming after a stop is alive, not stalled: it keeps its lane until it ends and is not replaced', async () => {
    const createEngine = fakeEngines({ reply: LONG, tokenMs: 100, ignoreInterrupt: true });
    const pool = new EnginePool({ createEngine, size: 1, stallTimeoutMs: 500 });
    await pool.load();
    const seen: string[] = [];
    const job = pool.submit(chat('x', { id: 'a', onChunk: (c) => seen.push(c.choices[0]?.delta.content ?? '') }));
    const next = pool.submit(chat('y', { task: 'a' }));
    await vi.advanceTimersByTimeAsync(250);
    pool.cancel('a');
    expect(await settled(job)).toMatchObject({ status: 'cancelled', text: 'w0 w1 w2' });
    const delivered = seen.length;
    await vi.advanceTimersByTimeAsync(2000);
    expect(pool.getSnapshot().engines[0]?.jobs).toEqual(['a']);
    await vi.runAllTimersAsync();
    expect(seen).toHaveLength(delivered);
    expect(createEngine.builds.get(0)).toBe(1);
    expect(createEngine.engines[0]!.calls[0]?.tokens).toBe(40);
    expect((await next).status).toBe('done');
  });

  it('a stalled engine with several lanes ends the jobs on its other lanes with an EngineStalledError', async () => {
    // Three lanes: two for the jobs of two tasks, the last kept for interactive work.
    const engine = createFakeEngine({ reply: LONG, tokenMs: 50, concurrency: 3 });
    let built = 0;
    const pool = new EnginePool({
      createEngine: async () => (++built === 1 ? engine : createFakeEngine({ concurrency: 3 })),
      size: 1,
      stallTimeoutMs: 200,
    });
    await pool.load();
    engine.hangNext({ afterTokens: 1 });
    const wedged = pool.submit(chat('a', { id: 'a', task: 'a' }));
    const healthy = pool.submit(chat('b', { id: 'b', task: 'b' }));
    await vi.advanceTimersByTimeAsync(60);
    pool.cancel('a');
    expect((await settled(wedged)).valueOf()).toMatchObject({ status: 'cancelled' });
    await vi.advanceTimersByTimeAsync(201);
    const result = await settled(healthy);
    expect(result).toMatchObject({ status: 'error' });
    expect(result !== 'pending' && result.error).toBeInstanceOf(EngineStalledError);
    expect(result !== 'pending' && result.error).toBeInstanceOf(EngineCrashedError);
    expect(result !== 'pending' && result.error?.name).toBe('EngineStalledError');
    expect(built).toBe(2);
  });

  it('a job preempted on a wedged engine still settles, within stallTimeoutMs', async () => {
    const { pool, createEngine } = wedgedPool(400);
    await pool.load();
    createEngine.engines[0]!.hangNext({ afterTokens: 2 });
    const batch = pool.submit(chat('page', { task: 'page', preemptible: true }));
    await vi.advanceTimersByTimeAsync(50);
    const ghost = pool.submit(chat('g', { priority: 'interactive' }));
    await vi.advanceTimersByTimeAsync(399);
    expect(await settled(batch)).toBe('pending');
    await vi.advanceTimersByTimeAsync(2);
    expect(await settled(batch)).toMatchObject({ status: 'preempted', text: 'w0 w1' });
    await vi.runAllTimersAsync();
    expect((await ghost).status).toBe('done');
  });
});

describe('engines that wedge every time', () => {
  it.each([
    ['create() never answers', { hangCreate: true }],
    ['every stream stops after two tokens', { hangAfterTokens: 2 }],
  ])('%s: each is replaced after a stop, and the slot is given up after three in a row', async (_name, wedge) => {
    const createEngine = fakeEngines({ reply: LONG, tokenMs: 10, ...wedge });
    const pool = new EnginePool({ createEngine, size: 1, stallTimeoutMs: 100 });
    await pool.load();
    for (let i = 0; i < 3; i += 1) {
      const job = pool.submit(chat(`x${i}`, { id: `x${i}` }));
      await vi.advanceTimersByTimeAsync(50);
      expect(createEngine.engines[i]!.calls[0]?.state).toBe('hung');
      pool.cancel(`x${i}`);
      expect((await settled(job)).valueOf()).toMatchObject({ status: 'cancelled' });
      await vi.advanceTimersByTimeAsync(101);
    }
    expect(createEngine.engines).toHaveLength(3);
    expect(createEngine.engines.every((e) => e.unloaded)).toBe(true);
    expect(pool.getSnapshot()).toMatchObject({ phase: 'error', size: 0 });
    expect(pool.getSnapshot().error?.message).toMatch(/crashed 3 times in a row.*sent nothing for 100 ms/);
  });
});

describe('a superseding job does not wait behind a wedged one', () => {
  it('runs on the other engine when one is free (its own task no longer counts as running)', async () => {
    const { pool, createEngine } = wedgedPool(Infinity, 2);
    await pool.load();
    // Grow to two engines, then let them idle.
    await Promise.all([pool.submit(chat('p', { task: 'p' })), pool.submit(chat('q', { task: 'q' })), vi.advanceTimersByTimeAsync(1000)]);
    expect(pool.getSnapshot().size).toBe(2);
    createEngine.engines[0]!.hangNext({ afterTokens: 2 });
    const first = pool.submit(chat('x', { session: 'chat', priority: 'high' }));
    await vi.advanceTimersByTimeAsync(50);
    const second = pool.submit(chat('y', { session: 'chat', priority: 'high' }));
    expect(await settled(first)).toMatchObject({ status: 'cancelled', cancelReason: 'supersede' });
    await vi.advanceTimersByTimeAsync(1000);
    expect(await settled(second)).toMatchObject({ status: 'done', engineIndex: 1 });
  });

  it('grows the pool for a ghost-text keystroke when the wedged engine and a busy one hold every lane', async () => {
    const createEngine = fakeEngines({ reply: LONG, tokenMs: 10 });
    const pool = new EnginePool({ createEngine, size: 3, stallTimeoutMs: Infinity });
    await pool.load();
    const batch = pool.submit(chat('translate', { task: 'page' }));
    await Promise.all([
      pool.submit(chat('other', { task: 'other', params: { messages: [{ role: 'user', content: 'o' }], max_tokens: 1 } })),
      vi.advanceTimersByTimeAsync(5),
    ]);
    expect(pool.getSnapshot().size).toBe(2);
    createEngine.engines[1]!.hangNext({ afterTokens: 2 });
    const g1 = pool.submit(chat('g1', { session: 'ghost', priority: 'interactive' }));
    await vi.advanceTimersByTimeAsync(30);
    expect(pool.getSnapshot().jobs.find((j) => j.session === 'ghost')).toMatchObject({ state: 'running', engineIndex: 1 });
    const g2 = pool.submit(
      chat('g2', { session: 'ghost', priority: 'interactive', params: { messages: [{ role: 'user', content: 'g2' }], max_tokens: 3 } }),
    );
    expect(await settled(g1)).toMatchObject({ status: 'cancelled', text: 'w0 w1' });
    await vi.advanceTimersByTimeAsync(100);
    expect(pool.getSnapshot().size).toBe(3);
    expect(await settled(g2)).toMatchObject({ status: 'done', text: 'w0 w1 w2', engineIndex: 2 });
    await vi.runAllTimersAsync();
    expect((await batch).status).toBe('done');
  });
});
