/// <reference types="node" />
import { inspect } from 'node:util';
import { EnginePool } from '@inkling/scheduler';
import { afterEach, describe, expect, it } from 'vitest';
import {
  AuthenticationError,
  BadRequestError,
  MalformedStreamError,
  ServerError,
  ServerUnreachableError,
  StreamInterruptedError,
  openaiEngines,
} from '../src/index.js';
import { type Routes, type TestServer, json, startServer } from './openaiServer.js';

const KEY = 'sk-live-THIS-KEY-MUST-NOT-LEAK-0123456789';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/**
 * Every string reachable from `root` through own properties, enumerable or
 * not (message, stack, cause, and whatever a fetch hung on its error),
 * recursively, each object once.
 */
function reachableStrings(root: unknown): string[] {
  const out: string[] = [];
  const seen = new Set<object>();
  const visit = (value: unknown, depth: number): void => {
    if (typeof value === 'string') out.push(value);
    if (typeof value !== 'object' || value === null || seen.has(value) || depth > 50) return;
    seen.add(value);
    for (const key of Object.getOwnPropertyNames(value)) {
      let child: unknown;
      try {
        child = (value as Record<string, unknown>)[key];
      } catch {
        continue;
      }
      visit(child, depth + 1);
    }
    if (value instanceof Headers || value instanceof Map) for (const entry of value) visit(entry, depth + 1);
  };
  visit(root, 0);
  return out;
}

function expectNoSecret(value: unknown, ...secrets: string[]): void {
  const seen = [...reachableStrings(value), String(value), inspect(value, { depth: 20, showHidden: true })].join('\n');
  for (const secret of secrets) expect(seen).not.toContain(secret);
}

async function poolWith(routes: Routes, extra: Partial<Parameters<typeof openaiEngines>[0]> = {}) {
  server = await startServer(routes);
  const pool = new EnginePool({
    createEngine: openaiEngines({ baseURL: server.baseURL, model: 'test-model', apiKey: KEY, maxRetries: 0, ...extra }),
    size: 1,
  });
  await pool.load();
  return pool;
}

const ask = { params: { messages: [{ role: 'user' as const, content: 'x' }] } };

/** A fetch of the user's own that, once the engine is built, fails the way HTTP clients do: request and headers on the error. */
function leakyFetch(code?: string) {
  let calls = 0;
  return (input: string, init: RequestInit): Promise<Response> => {
    if (++calls === 1) return fetch(input, init);
    const error = Object.assign(new TypeError('fetch failed'), {
      request: { url: input, method: init.method, headers: init.headers },
      headers: new Headers(init.headers),
      config: init,
    });
    if (code)
      Object.assign(error, {
        cause: Object.assign(new Error(`socket hang up (${String((init.headers as Record<string, string>).Authorization)})`), { code }),
      });
    return Promise.reject(error);
  };
}

describe('the API key is nowhere reachable from an error', () => {
  it('a fetch of your own whose error carries the request headers: ServerUnreachableError, its cause a clean copy; the snapshot too', async () => {
    const pool = await poolWith({}, { fetch: leakyFetch() });
    const { error } = await pool.submit(ask);
    expect(error).toBeInstanceOf(ServerUnreachableError);
    expect(error?.message).toMatch(/fetch failed/);
    expectNoSecret(error, KEY);
    expectNoSecret(pool.getSnapshot(), KEY);
    await pool.unload();
  });

  it('the same with a connection reset whose message echoes the header: StreamInterruptedError, code kept, key gone', async () => {
    const pool = await poolWith({}, { fetch: leakyFetch('ECONNRESET') });
    const { error } = await pool.submit(ask);
    expect(error).toBeInstanceOf(StreamInterruptedError);
    expect(error?.cause).toMatchObject({ cause: { code: 'ECONNRESET' } });
    expectNoSecret(error, KEY);
    await pool.unload();
  });

  it.each([500, 401])('an HTTP status line whose reason phrase echoes the key (%i)', async (status) => {
    const pool = await poolWith({
      chat: (_req, res) => {
        res.writeHead(status, `Refused ${KEY}`, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify({ error: { message: `no: ${KEY}` } }));
      },
    });
    const { error } = await pool.submit(ask);
    expect(error).toBeInstanceOf(status === 401 ? AuthenticationError : ServerError);
    expect(error?.cause).toMatchObject({ statusText: 'Refused [redacted]' });
    expectNoSecret(error, KEY);
    expectNoSecret(pool.getSnapshot(), KEY);
    await pool.unload();
  });

  it.each([
    ['an error status', 500, 'ServerError'],
    ['a refused key', 401, 'AuthenticationError'],
    ['an error in a 200 answer', 200, 'ServerError'],
  ] as const)('a request-id header that echoes the key is redacted in error.requestId too (%s)', async (_what, status, name) => {
    const pool = await poolWith({
      chat: (_req, res) => {
        const headers = { 'Content-Type': 'application/json', 'x-request-id': `req-${KEY}` };
        if (status === 200) json(res, 200, { error: { message: 'broken' } }, headers);
        else json(res, status, { error: { message: 'no' } }, headers);
      },
    });
    const { error } = await pool.submit(ask);
    expect(error?.name).toBe(name);
    expect((error as ServerError).requestId).toBe('req-[redacted]');
    expectNoSecret(error, KEY);
    await pool.unload();
  });

  it('a request id that echoes the key in the middle of a stream is redacted too', async () => {
    const pool = await poolWith({
      chat: (_req, res) => {
        res.writeHead(200, { 'Content-Type': 'text/event-stream', 'x-request-id': KEY });
        res.end(`data: ${JSON.stringify({ error: { message: 'overloaded', code: 503 } })}\n\n`);
      },
    });
    const { error } = await pool.submit(ask);
    expect(error).toBeInstanceOf(ServerError);
    expect((error as ServerError).requestId).toBe('[redacted]');
    expectNoSecret(error, KEY);
    await pool.unload();
  });

  it('a key passed in custom headers (Authorization: Bearer, x-api-key) is redacted by value, also when echoed alone', async () => {
    const bearer = 'tok-BEARER-SECRET-987654';
    const apiKeyHeader = 'xk-HEADER-SECRET-123456';
    server = await startServer({
      chat: (req, res) =>
        json(res, 400, {
          error: {
            message: `token ${String(req.headers.authorization).split(' ')[1]} or ${String(req.headers['x-api-key'])} (${encodeURIComponent(apiKeyHeader)})`,
          },
        }),
    });
    const pool = new EnginePool({
      createEngine: openaiEngines({
        baseURL: server.baseURL,
        model: 'test-model',
        headers: { Authorization: `Bearer ${bearer}`, 'x-api-key': apiKeyHeader },
      }),
      size: 1,
    });
    await pool.load();
    const { error } = await pool.submit(ask);
    expect(error).toBeInstanceOf(BadRequestError);
    expect(error?.message).toMatch(/token \[redacted\] or \[redacted\]/);
    expectNoSecret(error, bearer, apiKeyHeader);
    await pool.unload();
  });

  it('a stream whose body fails with an error carrying the request: the cause is a clean copy', async () => {
    const pool = await poolWith(
      {},
      {
        fetch: async (input, init) => {
          if (input.endsWith('/models')) return fetch(input, init);
          const body = new ReadableStream<Uint8Array>({
            start(controller) {
              controller.enqueue(
                new TextEncoder().encode(`data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: 'par' } }] })}\n\n`),
              );
            },
            pull(controller) {
              controller.error(Object.assign(new Error('terminated'), { request: { headers: init.headers } }));
            },
          });
          return new Response(body, { headers: { 'content-type': 'text/event-stream' } });
        },
      },
    );
    const result = await pool.submit(ask);
    expect(result).toMatchObject({ status: 'error', text: 'par' });
    expect(result.error).toBeInstanceOf(StreamInterruptedError);
    expectNoSecret(result.error, KEY);
    await pool.unload();
  });

  it('an embeddings answer that is not JSON and starts with the key: not even the part JSON.parse would quote survives', async () => {
    const pool = await poolWith({
      embeddings: (_req, res) => {
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.end(KEY);
      },
    });
    const { error } = await pool.submit({ kind: 'embedding', params: { input: 'a' } });
    expect(error).toBeInstanceOf(MalformedStreamError);
    expect(error?.message).toMatch(/not JSON: "\[redacted\]"/);
    expectNoSecret(error, KEY.slice(0, 10));
    await pool.unload();
  });
});
