/// <reference types="node" />
import { inspect } from 'node:util';
import { EnginePool, type Engine, EngineError, InklingError } from '@inkling/scheduler';
import { isFatalEngineError } from '@inkling/scheduler/engine';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  AuthenticationError,
  BadRequestError,
  MalformedStreamError,
  ServerError,
  ServerModelNotFoundError,
  ServerUnreachableError,
  StreamInterruptedError,
  openaiEngines,
} from '../src/index.js';
import { type Routes, type TestServer, chunk, json, openStream, send, startServer, streamReply, until } from './openaiServer.js';

const KEY = 'sk-live-THIS-KEY-MUST-NOT-LEAK-0123456789';

let servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.map((s) => s.close()));
  servers = [];
  vi.restoreAllMocks();
});

async function serve(routes: Routes = {}, port = 0): Promise<TestServer> {
  const server = await startServer(routes, port);
  servers.push(server);
  return server;
}

async function poolFor(server: TestServer, extra: Partial<Parameters<typeof openaiEngines>[0]> = {}) {
  const pool = new EnginePool({
    createEngine: openaiEngines({ baseURL: server.baseURL, model: 'test-model', apiKey: KEY, ...extra }),
    size: 1,
  });
  await pool.load();
  return pool;
}

const ask = { params: { messages: [{ role: 'user' as const, content: 'x' }] } };

async function drainChat(engine: Engine): Promise<string> {
  let text = '';
  const stream = await engine.chat.completions.create({ messages: [{ role: 'user', content: 'x' }], stream: true });
  for await (const c of stream) text += c.choices[0]?.delta.content ?? '';
  return text;
}

/** Everything an error carries that a person or a log could see. */
function everything(error: unknown): string {
  return [String(error), (error as Error).stack, inspect(error, { depth: 10 }), JSON.stringify((error as Error).cause ?? null)].join('\n');
}

describe('an unreachable server', () => {
  it('fails the engine build with ServerUnreachableError that says what to check', async () => {
    const server = await serve();
    await server.close();
    const build = openaiEngines({ baseURL: server.baseURL, model: 'test-model' })(0, () => {});
    await expect(build).rejects.toBeInstanceOf(ServerUnreachableError);
    await expect(build).rejects.toThrow(
      /Could not reach the server at http:\/\/127\.0\.0\.1:\d+\/v1\/models .*ECONNREFUSED.*running.*baseURL.*CORS/,
    );
  });

  it('is fatal: the pool ends the job, ends what is sent while the server is down with its error, and goes on after load()', async () => {
    const server = await serve({ chat: (req, res) => streamReply(req, res, ['ok']) });
    const port = Number(new URL(server.baseURL).port);
    const pool = await poolFor(server);
    await server.close();

    const lost = await pool.submit(ask);
    expect(lost.status).toBe('error');
    expect(lost.error).toBeInstanceOf(ServerUnreachableError);
    expect(isFatalEngineError(lost.error)).toBe(true);
    // The rebuild probed the server, found nothing, and the pool says so.
    await until(() => pool.getSnapshot().phase === 'error');
    expect(pool.getSnapshot().error).toBeInstanceOf(ServerUnreachableError);

    // Nothing waits on a server that is not there: the job ends at once with why.
    const meanwhile = await pool.submit(ask);
    expect(meanwhile.status).toBe('error');
    expect(meanwhile.error).toBeInstanceOf(ServerUnreachableError);
    expect(pool.getSnapshot().queued).toBe(0);
    await serve({ chat: (req, res) => streamReply(req, res, ['back']) }, port);
    await pool.load();
    expect(await pool.submit(ask)).toMatchObject({ status: 'done', text: 'back' });
    await pool.unload();
  });
});

describe('a connection closed before any answer', () => {
  it('is sent again at once, as when a server drops kept-alive connections it has no thread for (llama.cpp)', async () => {
    let seen = 0;
    const server = await serve({ chat: (req, res) => (++seen <= 3 ? void res.socket?.destroy() : streamReply(req, res, ['fine'])) });
    const pool = await poolFor(server);
    expect(await pool.submit(ask)).toMatchObject({ status: 'done', text: 'fine' });
    expect(seen).toBe(4);
    await pool.unload();
  });

  it('five times in a row (no retries left): StreamInterruptedError, not fatal, since something is there', async () => {
    const server = await serve({ chat: (_req, res) => void res.socket?.destroy() });
    const pool = await poolFor(server, { maxRetries: 0 });
    const { error } = await pool.submit(ask);
    expect(error).toBeInstanceOf(StreamInterruptedError);
    expect(error?.message).toMatch(/took the connection and closed it before answering, 5 times in a row .*--threads-http/);
    expect(isFatalEngineError(error)).toBe(false);
    expect(server.requests.filter((r) => r.path.endsWith('/chat/completions'))).toHaveLength(5);
    expect(pool.getSnapshot().phase).toBe('ready');
    await pool.unload();
  });
});

describe('errors from the server', () => {
  it.each([401, 403])('%i: AuthenticationError, not fatal, and the key is in no message, cause, stack or log', async (status) => {
    const logged: unknown[] = [];
    for (const method of ['log', 'info', 'warn', 'error', 'debug'] as const) {
      vi.spyOn(console, method).mockImplementation((...args: unknown[]) => void logged.push(...args));
    }
    // A server that echoes the key it refused, as some do.
    const server = await serve({
      chat: (req, res) => json(res, status, { error: { message: `Incorrect API key provided: ${req.headers.authorization}` } }),
    });
    const pool = await poolFor(server);
    const result = await pool.submit(ask);
    expect(result.error).toBeInstanceOf(AuthenticationError);
    expect(result.error).toMatchObject({ status });
    expect(result.error?.message).toMatch(
      status === 401 ? /refused the API key \(401 Unauthorized\)\. Check the apiKey/ : /403 Forbidden.*model "test-model"/,
    );
    expect(isFatalEngineError(result.error)).toBe(false);
    expect(pool.getSnapshot().phase).toBe('ready');
    expect(everything(result.error)).not.toContain(KEY);
    expect(JSON.stringify(pool.getSnapshot())).not.toContain(KEY);
    expect(logged.map((l) => inspect(l, { depth: 10 })).join('\n')).not.toContain(KEY);
    await pool.unload();
  });

  it('keeps the key and custom header values out of any server text it quotes', async () => {
    const server = await serve({
      chat: (req, res) => json(res, 500, { error: { message: `boom, request was ${JSON.stringify(req.headers)}` } }),
    });
    const pool = await poolFor(server, { headers: { 'X-Proxy-Token': 'proxy-secret-42' } });
    const { error } = await pool.submit(ask);
    expect(error).toBeInstanceOf(ServerError);
    expect(error?.message).toContain('[redacted]');
    expect(everything(error)).not.toContain(KEY);
    expect(everything(error)).not.toContain('proxy-secret-42');
    await pool.unload();
  });

  it('404: ServerModelNotFoundError naming the model and what to check', async () => {
    const server = await serve({ chat: (_req, res) => json(res, 404, { error: { message: 'The model `test-model` does not exist.' } }) });
    const pool = await poolFor(server);
    const { error } = await pool.submit(ask);
    expect(error).toBeInstanceOf(ServerModelNotFoundError);
    expect(error?.message).toMatch(
      /no model "test-model", or baseURL misses its "\/v1".*GET http:\/\/127\.0\.0\.1:\d+\/v1\/models.*does not exist/,
    );
    await pool.unload();
  });

  it("400: BadRequestError with the server's own words (FastAPI style)", async () => {
    const server = await serve({ chat: (_req, res) => json(res, 400, { detail: 'max_tokens is too large' }) });
    const pool = await poolFor(server);
    const { error } = await pool.submit(ask);
    expect(error).toBeInstanceOf(BadRequestError);
    expect(error?.message).toMatch(/rejected the request \(400\).*max_tokens is too large/);
    await pool.unload();
  });

  it('5xx: ServerError for that job only; the same engine runs the next job', async () => {
    let calls = 0;
    const server = await serve({
      chat: (req, res) => (++calls === 1 ? json(res, 500, { error: { message: 'CUDA error' } }) : streamReply(req, res, ['fine'])),
    });
    const built: number[] = [];
    const createEngine = openaiEngines({ baseURL: server.baseURL, model: 'test-model' });
    const pool = new EnginePool({ createEngine: (i, p) => (built.push(i), createEngine(i, p)), size: 1 });
    await pool.load();
    const first = await pool.submit(ask);
    expect(first.error).toBeInstanceOf(ServerError);
    expect(first.error?.message).toMatch(/failed on this request \(500\).*server's log.*CUDA error/);
    expect(await pool.submit(ask)).toMatchObject({ status: 'done', text: 'fine' });
    expect(built).toEqual([0]);
    await pool.unload();
  });

  it('an error event inside the stream: ServerError, text so far kept', async () => {
    const server = await serve({
      chat: (_req, res) => {
        openStream(res);
        send(res, chunk('partial'));
        send(res, { error: { message: 'out of KV cache', code: 503 } });
        res.end();
      },
    });
    const pool = await poolFor(server);
    const result = await pool.submit(ask);
    expect(result).toMatchObject({ status: 'error', text: 'partial' });
    expect(result.error).toBeInstanceOf(ServerError);
    expect(result.error).toMatchObject({ status: 503 });
    expect(result.error?.message).toMatch(/in the middle of the stream: out of KV cache/);
    await pool.unload();
  });
});

describe('a broken stream', () => {
  it('cut mid-way (connection dropped): the job has the partial text and a StreamInterruptedError', async () => {
    const server = await serve({
      chat: async (_req, res) => {
        openStream(res);
        send(res, chunk('Hello'));
        send(res, chunk(' wor'));
        await new Promise((resolve) => setTimeout(resolve, 10));
        res.socket?.destroy();
      },
    });
    const pool = await poolFor(server);
    const result = await pool.submit(ask);
    expect(result).toMatchObject({ status: 'error', text: 'Hello wor' });
    expect(result.error).toBeInstanceOf(StreamInterruptedError);
    expect(result.error).toBeInstanceOf(EngineError);
    expect(result.error).toMatchObject({ receivedChars: 9 });
    expect(result.error?.message).toMatch(
      /ended the stream before the answer was complete \(9 characters received, kept in the job's text\)/,
    );
    expect(isFatalEngineError(result.error)).toBe(false);
    await pool.unload();
  });

  it('ended cleanly but early (no finish, no [DONE]): StreamInterruptedError too', async () => {
    const server = await serve({
      chat: (_req, res) => {
        openStream(res);
        send(res, chunk('Hel'));
        res.end();
      },
    });
    const engine = await openaiEngines({ baseURL: server.baseURL, model: 'test-model' })(0, () => {});
    await expect(drainChat(engine)).rejects.toBeInstanceOf(StreamInterruptedError);
  });

  it('ended after the finish but before usage and [DONE]: not an error', async () => {
    const server = await serve({
      chat: async (_req, res) => {
        openStream(res);
        send(res, chunk('Done', 'stop'));
        await new Promise((resolve) => setTimeout(resolve, 10));
        res.socket?.destroy();
      },
    });
    const engine = await openaiEngines({ baseURL: server.baseURL, model: 'test-model' })(0, () => {});
    expect(await drainChat(engine)).toBe('Done');
  });

  it('a malformed SSE line: MalformedStreamError quoting it, text so far kept, and the request aborted', async () => {
    const server = await serve({
      chat: (_req, res) => {
        openStream(res);
        send(res, chunk('Good '));
        res.write('data: {"choices": [oops\n\n');
        // Keeps the response open: only the client can end it now.
      },
    });
    const pool = await poolFor(server);
    const result = await pool.submit(ask);
    expect(result).toMatchObject({ status: 'error', text: 'Good ' });
    expect(result.error).toBeInstanceOf(MalformedStreamError);
    expect(result.error?.message).toMatch(/not OpenAI's JSON: "\{"choices": \[oops".*OpenAI-compatible.*5 characters/);
    const request = server.requests.find((r) => r.path.endsWith('/chat/completions'))!;
    await request.done;
    expect(request.aborted).toBe(true);
    await pool.unload();
  });

  it('every error is an InklingError with a name', async () => {
    for (const E of [AuthenticationError, ServerModelNotFoundError, ServerError, BadRequestError]) {
      const error = new E('m', 400);
      expect(error).toBeInstanceOf(InklingError);
      expect(error.name).toBe(E.name);
    }
    expect(new ServerUnreachableError('m').fatal).toBe(true);
  });
});
