import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { EnginePool } from '../src/index.js';
import type { Engine, StreamingChatCompletionRequest } from '../src/index.js';
import { createFakeEngine } from '../src/testing/index.js';
import { chat } from './helpers.js';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

const LONG = Array.from({ length: 64 }, (_, i) => `w${i}`).join(' ');

/**
 * Wraps an engine so that `create()` resolves only when the test says: the
 * round trip to a Web Worker, made as wide as a test needs.
 */
function withSlowCreate(engine: Engine) {
  const gates: Array<() => void> = [];
  let credits = 0;
  const wrapped: Engine = {
    ...engine,
    interruptGenerate: () => engine.interruptGenerate(),
    chat: {
      completions: {
        create: async (request: StreamingChatCompletionRequest, options) => {
          const stream = await engine.chat.completions.create(request, options);
          if (credits > 0) credits -= 1;
          else await new Promise<void>((resolve) => gates.push(resolve));
          return stream;
        },
      },
    },
  };
  const openNext = () => {
    const gate = gates.shift();
    if (gate) gate();
    else credits += 1;
  };
  return { wrapped, openNext };
}

describe('cancellation on a WebLLM-like engine', () => {
  it('never starts a job cancelled before its stream opened, and never interrupts the idle engine', async () => {
    const engine = createFakeEngine({ reply: LONG, tokenMs: 10 });
    const { wrapped, openNext } = withSlowCreate(engine);
    const pool = new EnginePool({ createEngine: async () => wrapped, size: 1 });
    await pool.load();
    const job = pool.submit(chat('x', { id: 'ghost-1' }));
    await vi.advanceTimersByTimeAsync(0);
    pool.cancel('ghost-1'); // create() has not answered yet
    const result = await job; // at once: the caller does not wait for create()
    expect(result).toMatchObject({ status: 'cancelled', text: '', finishReason: 'abort' });
    openNext();
    await vi.advanceTimersByTimeAsync(0);
    expect(engine.calls[0]?.state).toBe('closed');
    expect(engine.interrupts).toBe(0);
    // The engine is free for the next job at once.
    const next = pool.submit(chat('y'));
    openNext();
    await vi.runAllTimersAsync();
    expect((await next).status).toBe('done');
  });

  it('repeats the interrupt on each chunk, so one lost to the lock-reset race still stops the generation', async () => {
    // The race: WebLLM resets its interrupt flag when a generation takes the
    // lock, which happens after the first next() has been sent. An interrupt
    // sent in between is wiped out. Reproduce it by cancelling while the
    // generation is still waiting for the lock behind another one.
    const engine = createFakeEngine({ reply: LONG, prefillMs: 50, tokenMs: 10 });
    const pool = new EnginePool({ createEngine: async () => engine, size: 1 });
    await pool.load();
    // A job that holds the lock outside the pool's view, like a stream still draining.
    const outside = await engine.chat.completions.create({ messages: [{ role: 'user', content: 'x' }], stream: true, max_tokens: 3 });
    const drainOutside = (async () => {
      for await (const _ of outside) {
        /* drain */
      }
    })();
    await vi.advanceTimersByTimeAsync(1);
    const superseded = pool.submit(chat('x', { session: 'ghost', params: { messages: [{ role: 'user', content: 'x' }], max_tokens: 64 } }));
    await vi.advanceTimersByTimeAsync(1);
    expect(engine.calls[1]?.state).toBe('waiting'); // next() sent, lock not yet taken
    pool.cancel('ghost'); // lands now; the reset will erase it
    expect(engine.interrupts).toBe(1);
    await vi.runAllTimersAsync();
    await drainOutside;
    const result = await superseded;
    expect(result.status).toBe('cancelled');
    const call = engine.calls[1]!;
    expect(call.finishReason).toBe('abort');
    // Stopped at the first decode step after the first chunk, not after 64 tokens.
    expect(call.tokens).toBeLessThanOrEqual(2);
    expect(engine.interrupts).toBeGreaterThanOrEqual(2);
    expect(engine.generating).toBe(false);
  });

  it('without the repeat the same race runs the superseded job to max_tokens (the race is real)', async () => {
    const engine = createFakeEngine({ reply: LONG, prefillMs: 50, tokenMs: 10 });
    const outside = await engine.chat.completions.create({ messages: [{ role: 'user', content: 'x' }], stream: true, max_tokens: 3 });
    const drainOutside = (async () => {
      for await (const _ of outside) {
        /* drain */
      }
    })();
    await vi.advanceTimersByTimeAsync(1);
    const stream = await engine.chat.completions.create({ messages: [{ role: 'user', content: 'x' }], stream: true, max_tokens: 32 });
    const read = (async () => {
      let n = 0;
      for await (const _ of stream) n += 1;
      return n;
    })();
    await vi.advanceTimersByTimeAsync(1);
    engine.interruptGenerate(); // once, as the seed did
    await vi.runAllTimersAsync();
    await drainOutside;
    await read;
    expect(engine.calls[1]).toMatchObject({ tokens: 32, finishReason: 'length' });
  });

  it('reads a cancelled stream to its end, so a WebLLM before 0.2.86 releases its lock', async () => {
    const engine = createFakeEngine({ reply: LONG, tokenMs: 10, mimic: '0.2.79' });
    const pool = new EnginePool({ createEngine: async () => engine, size: 1 });
    await pool.load();
    const first = pool.submit(chat('x', { session: 's' }));
    await vi.advanceTimersByTimeAsync(25);
    pool.cancel('s');
    await vi.advanceTimersByTimeAsync(30);
    expect((await first).status).toBe('cancelled');
    const second = pool.submit(chat('y'));
    await vi.runAllTimersAsync();
    // Had the pool left the first stream early, the lock would never free and this would hang.
    expect((await second).status).toBe('done');
    expect(engine.calls[1]?.finishReason).toBe('stop');
  });

  it('never poisons a WebLLM before 0.2.86 with an interrupt sent to an idle engine', async () => {
    const engine = createFakeEngine({ reply: 'a b c d', tokenMs: 5, mimic: '0.2.79' });
    const { wrapped, openNext } = withSlowCreate(engine);
    const pool = new EnginePool({ createEngine: async () => wrapped, size: 1 });
    await pool.load();
    const first = pool.submit(chat('x', { id: 'a' }));
    await vi.advanceTimersByTimeAsync(0);
    pool.cancel('a'); // before its stream opened: the engine is idle
    openNext();
    await first;
    const second = pool.submit(chat('y'));
    await vi.advanceTimersByTimeAsync(0);
    openNext();
    await vi.runAllTimersAsync();
    expect(await second).toMatchObject({ status: 'done', text: 'a b c d', finishReason: 'stop' });
  });

  it('cancels through an AbortSignal like cancel(id)', async () => {
    const engine = createFakeEngine({ reply: LONG, tokenMs: 10 });
    const pool = new EnginePool({ createEngine: async () => engine, size: 1 });
    await pool.load();
    const controller = new AbortController();
    const job = pool.submit(chat('x', { signal: controller.signal }));
    await vi.advanceTimersByTimeAsync(35);
    controller.abort();
    await vi.runAllTimersAsync();
    const result = await job;
    expect(result).toMatchObject({ status: 'cancelled', cancelReason: 'abort' });
    expect(result.text.length).toBeGreaterThan(0);
    expect(engine.calls[0]?.tokens).toBeLessThan(64);
  });

  it('resolves a job whose signal is already aborted without touching the pool', async () => {
    const engine = createFakeEngine();
    const pool = new EnginePool({ createEngine: async () => engine, size: 1 });
    await pool.load();
    const running = pool.submit(chat('x', { session: 's' }));
    const result = await pool.submit(chat('y', { session: 's', signal: AbortSignal.abort() }));
    expect(result).toMatchObject({ status: 'cancelled', cancelReason: 'abort' });
    await vi.runAllTimersAsync();
    expect((await running).status).toBe('done');
    expect(engine.calls).toHaveLength(1);
  });

  it('stops listening to a signal once the job is over', async () => {
    const engine = createFakeEngine({ reply: 'a' });
    const pool = new EnginePool({ createEngine: async () => engine, size: 1 });
    await pool.load();
    const controller = new AbortController();
    const remove = vi.spyOn(controller.signal, 'removeEventListener');
    await pool.submit(chat('x', { signal: controller.signal }));
    expect(remove).toHaveBeenCalledWith('abort', expect.any(Function));
  });

  it('cancel() by session stops every live job of that session and says how many', async () => {
    const engine = createFakeEngine({ reply: LONG, tokenMs: 10 });
    const pool = new EnginePool({ createEngine: async () => engine, size: 1 });
    await pool.load();
    const a = pool.submit(chat('a', { id: 'a' }));
    const b = pool.submit(chat('b', { id: 'b', session: 'x' }));
    await vi.advanceTimersByTimeAsync(5);
    expect(pool.cancel('x')).toBe(1);
    expect(pool.cancel('a')).toBe(1);
    expect(pool.cancel('nope')).toBe(0);
    await vi.runAllTimersAsync();
    expect((await a).status).toBe('cancelled');
    expect((await b).status).toBe('cancelled');
  });

  it.each([
    ['undefined', undefined],
    ['null', null],
    ['an empty string', ''],
  ])('cancel(%s), an optional session that was not set, cancels nothing', async (_name, key) => {
    const engine = createFakeEngine({ reply: 'a b c d', tokenMs: 10 });
    const pool = new EnginePool({ createEngine: async () => engine, size: 1 });
    await pool.load();
    const running = pool.submit(chat('a', { task: 't' }));
    const queued = pool.submit(chat('b', { task: 't' }));
    const withSession = pool.submit(chat('c', { task: 't', session: 's' }));
    await vi.advanceTimersByTimeAsync(5);
    expect(pool.cancel(key)).toBe(0);
    await vi.runAllTimersAsync();
    expect((await running).status).toBe('done');
    expect((await queued).status).toBe('done');
    expect((await withSession).status).toBe('done');
    expect(engine.interrupts).toBe(0);
  });
});
