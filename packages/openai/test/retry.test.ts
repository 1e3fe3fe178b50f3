import { EnginePool } from '@inkling/scheduler';
import { afterEach, describe, expect, it } from 'vitest';
import { BadRequestError, RateLimitError, ServerError, StreamInterruptedError, openaiEngines } from '../src/index.js';
import { type Handler, type TestServer, json, manualTimers, startServer, streamReply, until } from './openaiServer.js';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** Answers the first `refusals` chat requests with `refuse`, then streams "ok". */
function refusing(refusals: number, refuse: Handler): Handler {
  let seen = 0;
  return (req, res) => (++seen <= refusals ? refuse(req, res) : streamReply(req, res, ['ok']));
}

async function setup(chat: Handler, extra: Partial<Parameters<typeof openaiEngines>[0]> = {}) {
  server = await startServer({ chat });
  const timers = manualTimers();
  const pool = new EnginePool({
    createEngine: openaiEngines({
      baseURL: server.baseURL,
      model: 'test-model',
      timers,
      now: () => Date.parse('2026-01-01T00:00:00Z'),
      // No jitter, and no timeouts: the only timers are the retry waits.
      random: () => 0,
      connectTimeoutMs: Number.POSITIVE_INFINITY,
      stallTimeoutMs: Number.POSITIVE_INFINITY,
      ...extra,
    }),
    size: 1,
  });
  await pool.load();
  const chats = () => server!.requests.filter((r) => r.path.endsWith('/chat/completions')).length;
  return { pool, timers, chats };
}

const ask = { params: { messages: [{ role: 'user' as const, content: 'x' }] } };

describe('429 and Retry-After', () => {
  it('waits what Retry-After says (seconds), then retries and succeeds', async () => {
    const { pool, timers, chats } = await setup(
      refusing(1, (_q, s) => json(s, 429, { error: { message: 'slow down' } }, { 'Retry-After': '2' })),
    );
    const job = pool.submit(ask);
    await until(() => timers.waits().length === 1);
    expect(timers.waits()).toEqual([2000]);
    expect(chats()).toBe(1);
    timers.runAll();
    expect(await job).toMatchObject({ status: 'done', text: 'ok' });
    expect(chats()).toBe(2);
    await pool.unload();
  });

  it('reads Retry-After as an HTTP date against the injected clock', async () => {
    const { pool, timers } = await setup(refusing(1, (_q, s) => json(s, 429, {}, { 'Retry-After': 'Thu, 01 Jan 2026 00:00:03 GMT' })));
    const job = pool.submit(ask);
    await until(() => timers.waits().length === 1);
    expect(timers.waits()).toEqual([3000]);
    timers.runAll();
    expect((await job).status).toBe('done');
    await pool.unload();
  });

  it('backs off 1 s, 2 s without advice, and gives up after maxRetries with a RateLimitError', async () => {
    const { pool, timers, chats } = await setup((_q, s) => json(s, 429, { error: { message: 'quota' } }));
    const job = pool.submit(ask);
    await until(() => timers.waits().length === 1);
    expect(timers.waits()).toEqual([1000]);
    timers.runAll();
    await until(() => timers.waits().length === 1);
    expect(timers.waits()).toEqual([2000]);
    timers.runAll();
    const { error } = await job;
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error?.message).toMatch(/rate-limiting requests \(429\)\. Try again later, or lower "concurrency".*quota/);
    expect(chats()).toBe(3);
    await pool.unload();
  });

  it("does not wait longer than maxRetryDelayMs: the error carries the server's advice instead", async () => {
    const { pool, timers, chats } = await setup((_q, s) => json(s, 429, {}, { 'Retry-After': '60' }));
    const { error } = await pool.submit(ask);
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error).toMatchObject({ status: 429, retryAfterMs: 60_000 });
    expect(error?.message).toMatch(/asks to wait 60 s, longer than maxRetryDelayMs allows/);
    expect(timers.waits()).toEqual([]);
    expect(chats()).toBe(1);
    await pool.unload();
  });

  it('honours retry-after-ms on a 503', async () => {
    const advised = await setup(refusing(1, (_q, s) => json(s, 503, {}, { 'retry-after-ms': '250' })));
    const job = advised.pool.submit(ask);
    await until(() => advised.timers.waits().length === 1);
    expect(advised.timers.waits()).toEqual([250]);
    advised.timers.runAll();
    expect((await job).status).toBe('done');
    await advised.pool.unload();
  });

  it('a job cancelled during the wait ends at once, clears its timer and sends nothing more', async () => {
    const { pool, timers, chats } = await setup((_q, s) => json(s, 429, {}, { 'Retry-After': '5' }));
    const job = pool.submit({ ...ask, id: 'waiting' });
    await until(() => timers.waits().length === 1);
    pool.cancel('waiting');
    expect(await job).toMatchObject({ status: 'cancelled', cancelReason: 'cancel', text: '' });
    expect(timers.waits()).toEqual([]);
    expect(chats()).toBe(1);
    await pool.unload();
  });
});

describe('statuses that may pass, and dropped connections', () => {
  it.each([408, 502, 503, 504])('%i is retried after a backoff, then succeeds', async (status) => {
    const { pool, timers, chats } = await setup(refusing(1, (_q, s) => json(s, status, { error: { message: 'busy' } })));
    const job = pool.submit(ask);
    await until(() => timers.waits().length === 1);
    expect(timers.waits()).toEqual([1000]);
    timers.runAll();
    expect(await job).toMatchObject({ status: 'done', text: 'ok' });
    expect(chats()).toBe(2);
    await pool.unload();
  });

  it('the backoff doubles, is capped by maxRetryDelayMs, and takes a random part off (the injected random source)', async () => {
    const { pool, timers } = await setup((_q, s) => json(s, 502, {}), { random: () => 0.5, maxRetryDelayMs: 1500, maxRetries: 3 });
    const job = pool.submit(ask);
    const waits: number[] = [];
    for (let i = 0; i < 3; i += 1) {
      await until(() => timers.waits().length === 1);
      waits.push(...timers.waits());
      timers.runAll();
    }
    // 1000, 2000 and 4000 ms capped at 1500, each less a quarter (half of random 0.5).
    expect(waits).toEqual([750, 1125, 1125]);
    const { error } = await job;
    expect(error).toBeInstanceOf(ServerError);
    expect(error).toMatchObject({ status: 502, retryable: true });
    await pool.unload();
  });

  it('a Retry-After beyond maxRetryDelayMs on a 503 ends at once in a RateLimitError carrying the wait', async () => {
    const { pool, timers, chats } = await setup((_q, s) => json(s, 503, {}, { 'Retry-After': '120', 'x-request-id': 'req-503' }));
    const { error } = await pool.submit(ask);
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error).toMatchObject({ status: 503, retryAfterMs: 120_000, retryable: true, requestId: 'req-503' });
    expect(error?.message).toMatch(/is busy \(503\) and asks to wait 120 s, longer than maxRetryDelayMs allows/);
    expect(timers.waits()).toEqual([]);
    expect(chats()).toBe(1);
    await pool.unload();
  });

  it('a connection reset before any answer: resent at once a few times (stale kept-alive sockets), then retried after a backoff', async () => {
    let seen = 0;
    const { pool, timers, chats } = await setup((req, res) => (++seen <= 5 ? void res.socket?.destroy() : streamReply(req, res, ['back'])));
    const job = pool.submit(ask);
    await until(() => timers.waits().length === 1);
    expect(chats()).toBe(5);
    expect(timers.waits()).toEqual([1000]);
    timers.runAll();
    expect(await job).toMatchObject({ status: 'done', text: 'back' });
    expect(chats()).toBe(6);
    await pool.unload();
  });

  it('resets that never stop end in StreamInterruptedError once the retries are spent', async () => {
    const { pool, timers, chats } = await setup((_q, s) => void s.socket?.destroy(), { maxRetries: 1 });
    const job = pool.submit(ask);
    await until(() => timers.waits().length === 1);
    timers.runAll();
    expect((await job).error).toBeInstanceOf(StreamInterruptedError);
    expect(chats()).toBe(10);
    await pool.unload();
  });

  it("every HTTP error carries status, the server's request id and whether retrying can help", async () => {
    const { pool } = await setup((_q, s) => json(s, 400, { error: { message: 'bad' } }, { 'request-id': 'r-400' }));
    const { error } = await pool.submit(ask);
    expect(error).toBeInstanceOf(BadRequestError);
    expect(error).toMatchObject({ status: 400, requestId: 'r-400', retryable: false });
    expect(error?.message).toMatch(/\(request id r-400\)/);
    await pool.unload();
  });
});
