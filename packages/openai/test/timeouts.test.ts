import { EnginePool, InvalidOptionError } from '@inkling/scheduler';
import { isFatalEngineError } from '@inkling/scheduler/engine';
import { afterEach, describe, expect, it } from 'vitest';
import { ConnectTimeoutError, MalformedStreamError, ServerUnreachableError, StreamInterruptedError, openaiEngines } from '../src/index.js';
import { type Routes, type TestServer, chunk, manualTimers, openStream, send, startServer, streamReply, until } from './openaiServer.js';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const ask = { params: { messages: [{ role: 'user' as const, content: 'x' }] } };
const NEVER = Number.POSITIVE_INFINITY;
const TOKENS = Array.from({ length: 20 }, (_, i) => ` t${i}`);

async function setup(routes: Routes, extra: Partial<Parameters<typeof openaiEngines>[0]>) {
  server = await startServer(routes);
  const timers = manualTimers();
  const built: number[] = [];
  // The whole-answer bound (its own tests are in responseBounds.test.ts) is off, so each test sees only its own timer.
  const createEngine = openaiEngines({
    baseURL: server.baseURL,
    model: 'test-model',
    timers,
    maxRetries: 0,
    maxResponseMs: NEVER,
    ...extra,
  });
  const pool = new EnginePool({ createEngine: (i, p) => (built.push(i), createEngine(i, p)), size: 1 });
  await pool.load();
  const chats = () => server!.requests.filter((r) => r.path.endsWith('/chat/completions'));
  return { pool, timers, built, chats };
}

/** Streams "Hel", "lo" and then nothing, keeping the response open. */
const stalling: Routes['chat'] = (_req, res) => {
  openStream(res);
  send(res, chunk('Hel'));
  send(res, chunk('lo'));
};

describe('stallTimeoutMs', () => {
  it('no bytes for stallTimeoutMs mid-stream: StreamInterruptedError with the text kept, and the request closed', async () => {
    const { pool, timers, chats } = await setup({ chat: stalling }, { stallTimeoutMs: 5000, connectTimeoutMs: NEVER });
    const job = pool.submit(ask);
    await until(() => pool.getSnapshot().jobs[0]?.tokens === 2 && timers.waits().length === 1);
    expect(timers.waits()).toEqual([5000]);
    timers.runAll();
    const result = await job;
    expect(result).toMatchObject({ status: 'error', text: 'Hello' });
    expect(result.error).toBeInstanceOf(StreamInterruptedError);
    expect(result.error).toMatchObject({ receivedChars: 5 });
    expect(result.error?.message).toMatch(
      /sent nothing for 5000 ms in the middle of the stream \(5 characters received, kept in the job's text\).*raise stallTimeoutMs/,
    );
    expect(isFatalEngineError(result.error)).toBe(false);
    await chats()[0]!.done;
    expect(chats()[0]!.aborted).toBe(true);
    await pool.unload();
  });

  it('a stream that keeps sending is never cut, however long it takes: each read has its own wait', async () => {
    const { pool, timers } = await setup(
      { chat: (req, res) => streamReply(req, res, ['a', 'b', 'c'], { delayMs: 2 }) },
      { stallTimeoutMs: 5000, connectTimeoutMs: NEVER },
    );
    expect(await pool.submit(ask)).toMatchObject({ status: 'done', text: 'abc' });
    expect(timers.waits()).toEqual([]);
    await pool.unload();
  });
});

describe('connectTimeoutMs', () => {
  it('no response headers in time: ConnectTimeoutError for that job only; the engine and its other streams go on', async () => {
    let seen = 0;
    const { pool, timers, built, chats } = await setup(
      // The first request is taken and never answered; the next ones stream.
      { chat: (req, res) => (++seen === 1 ? undefined : streamReply(req, res, TOKENS, { delayMs: 5 })) },
      { connectTimeoutMs: 4000, stallTimeoutMs: NEVER },
    );
    const hung = pool.submit(ask);
    await until(() => chats().length === 1 && timers.waits().length === 1);
    const streaming = pool.submit(ask);
    await until(() => (pool.getSnapshot().jobs.find((j) => j.tokens > 0)?.tokens ?? 0) >= 2);
    expect(timers.waits()).toEqual([4000]);
    timers.runAll();
    const { error } = await hung;
    expect(error).toBeInstanceOf(ConnectTimeoutError);
    expect(error).toMatchObject({ timeoutMs: 4000, retryable: true });
    expect(error?.message).toMatch(
      /http:\/\/127\.0\.0\.1:\d+\/v1\/chat\/completions sent no answer within 4000 ms .*running.*raise connectTimeoutMs/,
    );
    expect(isFatalEngineError(error)).toBe(false);
    await chats()[0]!.done;
    expect(chats()[0]!.aborted).toBe(true);
    expect(await streaming).toMatchObject({ status: 'done', text: TOKENS.join('') });
    expect(built).toEqual([0]);
    await pool.unload();
  });

  it('holds even for a fetch of your own that ignores its signal', async () => {
    const timers = manualTimers();
    server = await startServer();
    const engine = await openaiEngines({
      baseURL: server.baseURL,
      model: 'test-model',
      timers,
      maxRetries: 0,
      connectTimeoutMs: 100,
      fetch: (input, init) => (input.endsWith('/models') ? fetch(input, init) : new Promise<Response>(() => {})),
    })(0, () => {});
    const created = engine.chat.completions.create({ messages: [{ role: 'user', content: 'x' }], stream: true });
    await until(() => timers.waits().length === 1);
    timers.runAll();
    await expect(created).rejects.toBeInstanceOf(ConnectTimeoutError);
  });

  it('when building the engine, no answer from GET /models in time is ServerUnreachableError', async () => {
    const timers = manualTimers();
    server = await startServer({ models: () => {} });
    const build = openaiEngines({ baseURL: server.baseURL, model: 'test-model', timers, connectTimeoutMs: 4000 })(0, () => {});
    await until(() => timers.waits().length === 1);
    timers.runAll();
    await expect(build).rejects.toBeInstanceOf(ServerUnreachableError);
    await expect(build).rejects.toThrow(/Could not reach the server at http:\/\/127\.0\.0\.1:\d+\/v1\/models .*within 4000 ms/);
  });
});

describe('maxEventBytes', () => {
  it('an event longer than maxEventBytes: MalformedStreamError as soon as it passes, the text before kept, the request closed', async () => {
    const { pool, chats } = await setup(
      {
        chat: (_req, res) => {
          openStream(res);
          send(res, chunk('kept'));
          // An event that never ends: the limit must cut it without waiting for its end.
          res.write(`data: {"choices":[{"index":0,"delta":{"content":"${'x'.repeat(5000)}`);
        },
      },
      { maxEventBytes: 1000, stallTimeoutMs: NEVER, connectTimeoutMs: NEVER },
    );
    const result = await pool.submit(ask);
    expect(result).toMatchObject({ status: 'error', text: 'kept' });
    expect(result.error).toBeInstanceOf(MalformedStreamError);
    expect(result.error?.message).toMatch(/a stream event longer than 1000 bytes \(maxEventBytes\).*raise maxEventBytes/);
    await chats()[0]!.done;
    expect(chats()[0]!.aborted).toBe(true);
    await pool.unload();
  });

  it('events up to the limit pass', async () => {
    const text = 'y'.repeat(800);
    const { pool } = await setup(
      { chat: (req, res) => streamReply(req, res, [text, text]) },
      { maxEventBytes: 1000, stallTimeoutMs: NEVER, connectTimeoutMs: NEVER },
    );
    expect(await pool.submit(ask)).toMatchObject({ status: 'done', text: text + text });
    await pool.unload();
  });
});

describe('the new options are checked', () => {
  it.each([
    ['connectTimeoutMs', -1],
    ['stallTimeoutMs', Number.NaN],
    ['connectTimeoutMs', 2 ** 31],
    ['maxRetryDelayMs', '5'],
    ['maxEventBytes', 0],
    ['maxEventBytes', 1.5],
    ['timers', {}],
    ['random', 0.5],
  ])('%s: %s is an InvalidOptionError that names it', (key, value) => {
    expect(() => openaiEngines({ baseURL: 'http://h/v1', model: 'm', [key]: value })).toThrow(InvalidOptionError);
    expect(() => openaiEngines({ baseURL: 'http://h/v1', model: 'm', [key]: value })).toThrow(new RegExp(`"${key}"`));
  });

  it('a header fetch cannot send, or a key with a line break, is refused at once without quoting the value', () => {
    expect(() => openaiEngines({ baseURL: 'http://h/v1', model: 'm', headers: { 'x-api-key': 'secret-value\n' } })).toThrow(
      /"headers" has a header fetch cannot send: "x-api-key"/,
    );
    expect(() => openaiEngines({ baseURL: 'http://h/v1', model: 'm', headers: { 'bad name': 'v' } })).toThrow(InvalidOptionError);
    expect(() => openaiEngines({ baseURL: 'http://h/v1', model: 'm', apiKey: 'sk-abc\r\n' })).toThrow(/"apiKey" holds a line break/);
    const refused = catchError(() => openaiEngines({ baseURL: 'http://h/v1', model: 'm', headers: { 'x-api-key': 'secret-value\n' } }));
    expect(refused).toBeInstanceOf(InvalidOptionError);
    expect((refused as Error).message).not.toContain('secret-value');
  });

  it('Infinity means never for each duration and no limit for maxEventBytes', () => {
    expect(() =>
      openaiEngines({
        baseURL: 'http://h/v1',
        model: 'm',
        connectTimeoutMs: NEVER,
        stallTimeoutMs: NEVER,
        maxRetryDelayMs: NEVER,
        maxEventBytes: NEVER,
      }),
    ).not.toThrow();
  });
});

/** The error `run` throws, or `undefined` when it returns. */
function catchError(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  return undefined;
}
