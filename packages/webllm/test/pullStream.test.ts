import { EnginePool } from '@inkling/scheduler';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { chat, fakeWebLLM, until, useVirtualTime } from './helpers.js';

const MIMICS = ['0.2.86', '0.2.79'] as const;

/** The calls the fake WebLLM inside engine worker 0 received. */
function calls(workers: ReturnType<typeof fakeWebLLM>['workers']) {
  return workers[0]?.mlc?.engine?.calls ?? [];
}

describe.each(MIMICS)('the engine worker never runs ahead of the page (WebLLM %s)', (mimic) => {
  beforeEach(() => useVirtualTime());
  afterEach(() => vi.useRealTimers());

  it('a cancel from the chunk callback costs no token: the worker runs a step only when the page pulls', async () => {
    const { createEngine, workers } = fakeWebLLM({ mimic, tokenMs: 20, reply: 'a b c d e f g h i j k l' });
    const pool = new EnginePool({ createEngine, size: 1 });
    await pool.load();
    let seen = 0;
    const result = await pool.submit(
      chat('hi', {
        id: 'long',
        onChunk: (chunk) => {
          if (chunk.choices[0]?.delta.content) seen += 1;
          if (seen === 3) pool.cancel('long');
        },
      }),
    );
    expect(result.status).toBe('cancelled');
    // The job settles first; WebLLM's generation ends when the worker has read it out.
    await until(() => calls(workers)[0]?.finishReason !== undefined);
    const [call] = calls(workers);
    expect(call?.tokens).toBe(3);
    expect(call?.tokensAfterInterrupt).toBe(0);
    // The next job is not stopped by a flag left behind.
    expect(await pool.submit(chat('again'))).toMatchObject({ status: 'done', text: 'a b c d e f g h i j k l' });
    expect(workers[0]?.mlc?.idleInterrupts).toBe(0);
  });

  it('a cancel from a timer costs at most the step in flight', async () => {
    const { createEngine, workers } = fakeWebLLM({ mimic, tokenMs: 20, reply: 'a b c d e f g h i j k l' });
    const pool = new EnginePool({ createEngine, size: 1 });
    await pool.load();
    for (const delay of [1, 7, 13, 19]) {
      let seen = 0;
      const result = await pool.submit(
        chat('hi', {
          id: `t${delay}`,
          onChunk: (chunk) => {
            if (chunk.choices[0]?.delta.content) seen += 1;
            if (seen === 2) setTimeout(() => pool.cancel(`t${delay}`), delay);
          },
        }),
      );
      expect(result.status).toBe('cancelled');
      await until(() => calls(workers).at(-1)?.finishReason !== undefined);
    }
    for (const call of calls(workers)) expect(call.tokensAfterInterrupt).toBeLessThanOrEqual(1);
    expect(workers[0]?.mlc?.idleInterrupts).toBe(0);
  });

  it('an interrupt that lands during prefill still stops the generation after its first token, and one before the first pull starts nothing', async () => {
    const { createEngine, workers } = fakeWebLLM({ mimic, prefillMs: 100, tokenMs: 20, reply: 'a b c d e f g h i j k l' });
    const pool = new EnginePool({ createEngine, size: 1 });
    await pool.load();
    const job = pool.submit(chat('hi', { id: 'p' }));
    await until(() => calls(workers)[0]?.state === 'prefill');
    pool.cancel('p');
    expect((await job).status).toBe('cancelled');
    await until(() => calls(workers)[0]?.finishReason !== undefined);
    expect(calls(workers)[0]?.tokens).toBeLessThanOrEqual(1);
    // Cancelled while queued: the worker never starts WebLLM's stream.
    const busy = pool.submit(chat('busy'));
    const queued = pool.submit(chat('queued', { id: 'q' }));
    pool.cancel('q');
    expect((await queued).status).toBe('cancelled');
    expect((await busy).status).toBe('done');
    expect(calls(workers).map((c) => (c.request as { messages: Array<{ content: string }> }).messages[0]?.content)).toEqual(['hi', 'busy']);
    expect(workers[0]?.mlc?.idleInterrupts).toBe(0);
  });

  it('pulls one chunk at a time: the page is never sent a chunk it did not ask for', async () => {
    const { createEngine, workers } = fakeWebLLM({ mimic, tokenMs: 5, reply: 'a b c d' });
    const pool = new EnginePool({ createEngine, size: 1 });
    await pool.load();
    expect(await pool.submit(chat('hi'))).toMatchObject({ status: 'done', text: 'a b c d' });
    const worker = workers[0]!;
    const chatCall = worker.kinds('chat')[0];
    const chatId = chatCall && 'rid' in chatCall ? chatCall.rid : undefined;
    // a b c d, the finish chunk, the usage chunk, then the end: one pull each.
    expect(worker.kinds('pull').filter((m) => 'rid' in m && m.rid === chatId)).toHaveLength(7);
  });
});

describe('a stream the page leaves', () => {
  beforeEach(() => useVirtualTime());
  afterEach(() => vi.useRealTimers());

  it('is stopped and read out by the worker, so the next request gets the engine', async () => {
    const { createEngine, workers } = fakeWebLLM({ tokenMs: 20, reply: 'a b c d e f g h i j k l' });
    const engine = await createEngine(0, () => {}, { signal: new AbortController().signal });
    const stream = await engine.chat.completions.create({ messages: [{ role: 'user', content: 'hi' }], stream: true });
    const iterator = stream[Symbol.asyncIterator]();
    expect((await iterator.next()).value?.choices[0]?.delta.content).toBe('a');
    await iterator.return?.();
    await until(() => calls(workers)[0]?.finishReason !== undefined);
    expect(calls(workers)[0]).toMatchObject({ finishReason: 'abort' });
    expect(calls(workers)[0]?.tokens).toBeLessThanOrEqual(2);
    const next = await engine.chat.completions.create({ messages: [{ role: 'user', content: 'again' }], stream: true });
    let text = '';
    for await (const chunk of next) text += chunk.choices[0]?.delta.content ?? '';
    expect(text).toBe('a b c d e f g h i j k l');
  });
});
