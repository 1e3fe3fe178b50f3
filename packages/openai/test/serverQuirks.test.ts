import { EnginePool } from '@inkling/scheduler';
import { isFatalEngineError } from '@inkling/scheduler/engine';
import { afterEach, describe, expect, it } from 'vitest';
import { ServerError, openaiEngines } from '../src/index.js';
import {
  type Handler,
  type TestServer,
  chunk,
  json,
  manualTimers,
  openStream,
  send,
  startServer,
  streamReply,
  until,
} from './openaiServer.js';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function poolOn(chat: Handler, extra: Partial<Parameters<typeof openaiEngines>[0]> = {}) {
  server = await startServer({ chat });
  const pool = new EnginePool({ createEngine: openaiEngines({ baseURL: server.baseURL, model: 'test-model', ...extra }), size: 1 });
  await pool.load();
  const chats = () => server!.requests.filter((r) => r.path.endsWith('/chat/completions')).length;
  return { pool, chats };
}

const ask = { params: { messages: [{ role: 'user' as const, content: 'x' }] } };

describe('servers in the wild', () => {
  it('a chunk with "error": null is an ordinary chunk (Foundry Local sends it on every chunk)', async () => {
    const { pool } = await poolOn((_req, res) => {
      openStream(res);
      for (const piece of ['Bon', 'jour']) send(res, { ...chunk(piece), error: null });
      send(res, { ...chunk(undefined, 'stop'), error: null });
      send(res, '[DONE]');
      res.end();
    });
    expect(await pool.submit(ask)).toMatchObject({ status: 'done', text: 'Bonjour', finishReason: 'stop' });
    await pool.unload();
  });

  it('a 200 JSON {"error"} answering a stream request is a ServerError with the server\'s words, not an empty answer', async () => {
    const { pool, chats } = await poolOn((_req, res) =>
      json(res, 200, { error: { message: 'context window exceeded', type: 'invalid_request_error' } }, { 'x-request-id': 'req-42' }),
    );
    const result = await pool.submit(ask);
    expect(result.status).toBe('error');
    expect(result.error).toBeInstanceOf(ServerError);
    expect(result.error).toMatchObject({ status: 500, retryable: false, requestId: 'req-42' });
    expect(result.error?.message).toMatch(/answered with an error instead of a stream \(request id req-42\): context window exceeded/);
    expect(isFatalEngineError(result.error)).toBe(false);
    expect(chats()).toBe(1);
    await pool.unload();
  });

  it('"Model is loading" in a 200 JSON error is retryable: retried after a backoff, then the answer streams', async () => {
    const timers = manualTimers();
    let seen = 0;
    const { pool, chats } = await poolOn(
      (req, res) =>
        ++seen === 1 ? json(res, 200, { error: { message: 'Model is loading', code: 'model_loading' } }) : streamReply(req, res, ['ready']),
      { timers, random: () => 0, connectTimeoutMs: Number.POSITIVE_INFINITY, stallTimeoutMs: Number.POSITIVE_INFINITY },
    );
    const job = pool.submit(ask);
    await until(() => timers.waits().length === 1);
    expect(timers.waits()).toEqual([1000]);
    timers.runAll();
    expect(await job).toMatchObject({ status: 'done', text: 'ready' });
    expect(chats()).toBe(2);
    await pool.unload();
  });

  it('"Model is loading" with no retries left: a ServerError that says retrying can help', async () => {
    const { pool } = await poolOn((_req, res) => json(res, 200, { error: 'Model is loading, please wait' }), { maxRetries: 0 });
    const { error } = await pool.submit(ask);
    expect(error).toBeInstanceOf(ServerError);
    expect(error).toMatchObject({ retryable: true });
    expect(error?.message).toMatch(/Model is loading, please wait\. It should pass: try again in a moment/);
    await pool.unload();
  });

  it('an error event in the stream carries the status it names and the request id of the response', async () => {
    const { pool } = await poolOn((_req, res) => {
      res.setHeader('x-request-id', 'abc-1');
      openStream(res);
      send(res, chunk('half'));
      res.write(`event: error\ndata: ${JSON.stringify({ message: 'overloaded', code: 503 })}\n\n`);
      res.end();
    });
    const result = await pool.submit(ask);
    expect(result).toMatchObject({ status: 'error', text: 'half' });
    expect(result.error).toBeInstanceOf(ServerError);
    expect(result.error).toMatchObject({ status: 503, retryable: true, requestId: 'abc-1' });
    await pool.unload();
  });
});
