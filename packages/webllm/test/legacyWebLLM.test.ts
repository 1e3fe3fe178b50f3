import { type ChatCompletionChunk, EnginePool } from '@inkling/scheduler';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type FakeMLCEngine, fakeWebLLMModule } from './fakeWebLLM.js';
import { appConfig, chat, fakeWebLLM, until, useVirtualTime } from './helpers.js';

beforeEach(useVirtualTime);
afterEach(() => {
  vi.useRealTimers();
});

// WebLLM before 0.2.86: the interrupt flag is not reset when a generation
// takes the lock, and a stream left early never releases the lock. The fake
// WebLLM reproduces both (`mimic: '0.2.79'`); these tests check that the
// worker, the page's engine and the pool together never trip over them.
const LONG = Array.from({ length: 40 }, (_, i) => `w${i}`).join(' ');
const legacy = { mimic: '0.2.79' as const, reply: LONG, tokenMs: 3 };

describe('on WebLLM before 0.2.86', () => {
  it('(the fake reproduces it) an interrupt sent while idle cuts the next generation short', async () => {
    const webllm = fakeWebLLMModule(legacy);
    const mlc = new webllm.MLCEngine({ appConfig, initProgressCallback: () => {} } as never) as unknown as FakeMLCEngine;
    await mlc.reload('Tiny-q4f32_1');
    mlc.interruptGenerate();
    expect(await finishOf(await mlc.chat.completions.create({ messages: [{ role: 'user', content: 'x' }], stream: true }))).toBe('abort');
  });

  it('an interrupt sent while no stream runs never reaches WebLLM, so the next generation runs to its end', async () => {
    const { createEngine, workers } = fakeWebLLM(legacy);
    const engine = await createEngine(0, () => {}, { signal: new AbortController().signal });
    engine.interruptGenerate();
    const first = await engine.chat.completions.create({ messages: [{ role: 'user', content: 'x' }], stream: true });
    expect(await finishOf(first)).toBe('stop');
    engine.interruptGenerate(); // the stream has ended
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(await finishOf(await engine.chat.completions.create({ messages: [{ role: 'user', content: 'y' }], stream: true }))).toBe('stop');
    expect(workers[0]?.mlc?.idleInterrupts).toBe(0);
    await engine.unload?.();
  });

  it('the pool never interrupts an idle engine: a job cancelled before its stream opened, then one after it ended', async () => {
    const { createEngine, workers } = fakeWebLLM(legacy);
    const pool = new EnginePool({ createEngine, size: 1 });
    await pool.load();
    const worker = workers[0];
    const early = pool.submit(chat('x', { id: 'early' }));
    pool.cancel('early'); // create() is still a round trip away
    expect((await early).status).toBe('cancelled');
    const done = await pool.submit(chat('y', { id: 'done' }));
    pool.cancel('done'); // already over: nothing to stop
    const next = await pool.submit(chat('z'));
    expect(worker?.mlc?.idleInterrupts).toBe(0);
    expect(next).toMatchObject({ status: 'done', finishReason: 'stop', text: LONG });
    expect(done.text).toBe(LONG);
  });

  it('(the fake reproduces it) a stream left early holds the lock, so the next request hangs', async () => {
    const webllm = fakeWebLLMModule(legacy);
    const mlc = new webllm.MLCEngine({ appConfig, initProgressCallback: () => {} } as never) as unknown as FakeMLCEngine;
    await mlc.reload('Tiny-q4f32_1');
    const first = (await mlc.chat.completions.create({
      messages: [{ role: 'user', content: 'x' }],
      stream: true,
    })) as AsyncIterable<unknown>;
    for await (const _ of first) break;
    const second = (await mlc.chat.completions.create({
      messages: [{ role: 'user', content: 'y' }],
      stream: true,
    })) as AsyncIterable<unknown>;
    expect(await answeredWithin(second[Symbol.asyncIterator]().next(), 200)).toBe(false);
  });

  it('a stream the page leaves early is stopped and read to its end in the worker, so the next request runs', async () => {
    const { createEngine, workers } = fakeWebLLM(legacy);
    const engine = await createEngine(0, () => {}, { signal: new AbortController().signal });
    const first = await engine.chat.completions.create({ messages: [{ role: 'user', content: 'x' }], stream: true });
    for await (const _ of first) break;
    const second = await engine.chat.completions.create({ messages: [{ role: 'user', content: 'y' }], stream: true });
    expect(await answeredWithin(second[Symbol.asyncIterator]().next(), 2000)).toBe(true);
    const calls = workers[0]?.engine?.calls ?? [];
    expect(calls[0]).toMatchObject({ state: 'done', finishReason: 'abort' }); // interrupted, not run to its end
    expect(calls[0]?.tokensAfterInterrupt).toBeLessThanOrEqual(1);
    expect(workers[0]?.kinds('close')).toHaveLength(1);
    await engine.unload?.();
  });

  it('a superseded job is interrupted and read to its end, so the engine is free for the next one', async () => {
    const { createEngine, workers } = fakeWebLLM(legacy);
    const pool = new EnginePool({ createEngine, size: 1 });
    await pool.load();
    const worker = workers[0];
    const old = pool.submit(chat('a', { session: 'ghost' }));
    await until(() => (worker?.engine?.calls[0]?.tokens ?? 0) >= 3);
    const latest = pool.submit(chat('ab', { session: 'ghost' }));
    const superseded = await old; // at once; the engine drains in the background
    expect(superseded).toMatchObject({ status: 'cancelled', cancelReason: 'supersede' });
    expect(await latest).toMatchObject({ status: 'done', text: LONG });
    const call = worker?.engine?.calls[0];
    expect(call?.state).toBe('done'); // drained, not left
    expect(call?.tokensAfterInterrupt).toBeLessThanOrEqual(1);
    expect(worker?.kinds('close')).toHaveLength(0);
  });

  it('preemption stops the batch job on the engine and gives it to the interactive one', async () => {
    const { createEngine, workers } = fakeWebLLM(legacy);
    const pool = new EnginePool({ createEngine, size: 1 });
    await pool.load();
    const batch = pool.submit(chat('translate', { task: 'translate', preemptible: true }));
    await until(() => (workers[0]?.engine?.calls[0]?.tokens ?? 0) >= 2);
    const ghost = pool.submit(chat('ghost', { priority: 'interactive' }));
    const victim = await batch;
    expect(victim.status).toBe('preempted');
    expect(victim.text.length).toBeGreaterThan(0);
    expect((await ghost).status).toBe('done');
    expect(workers[0]?.mlc?.idleInterrupts).toBe(0);
  });
});

/** The finish reason a stream ends with. */
async function finishOf(stream: unknown): Promise<string | null | undefined> {
  let finish: string | null | undefined;
  for await (const chunk of stream as AsyncIterable<ChatCompletionChunk>) finish = chunk.choices[0]?.finish_reason ?? finish;
  return finish;
}

/** Whether `promise` settles within `ms`. */
function answeredWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  return Promise.race([promise.then(() => true), new Promise<boolean>((resolve) => setTimeout(resolve, ms, false))]);
}
