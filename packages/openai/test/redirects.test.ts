/// <reference types="node" />
import { EnginePool } from '@inkling/scheduler';
import { afterEach, describe, expect, it } from 'vitest';
import { RedirectRefusedError, ServerResponseError, openaiEngines } from '../src/index.js';
import { type TestServer, startServer } from './openaiServer.js';

const KEY = 'sk-live-THIS-KEY-MUST-NOT-LEAK-0123456789';

let servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.map((s) => s.close()));
  servers = [];
});

/** A server on another origin (another port) that answers every request, and records what it was sent. */
async function elsewhere(): Promise<TestServer> {
  const server = await startServer();
  servers.push(server);
  return server;
}

/** The API's server: `/models` answers; the job's route answers `status` with a `Location` on `target`. */
async function redirecting(target: TestServer, status: number): Promise<TestServer> {
  const server = await startServer({
    chat: (req, res) => {
      res.writeHead(status, { Location: `${target.baseURL}/chat/completions?api-key=${KEY}` });
      res.end();
    },
    embeddings: (req, res) => {
      res.writeHead(status, { Location: `${target.baseURL}/embeddings` });
      res.end();
    },
  });
  servers.push(server);
  return server;
}

const ask = { params: { messages: [{ role: 'user' as const, content: 'x' }] } };

describe('a server that answers with a redirect', () => {
  it.each([301, 302, 303, 307, 308])(
    'a %i to another origin: nothing goes there, no header, no key; the job ends with a typed error that says why',
    async (status) => {
      const other = await elsewhere();
      const server = await redirecting(other, status);
      const pool = new EnginePool({
        createEngine: openaiEngines({
          baseURL: server.baseURL,
          model: 'test-model',
          apiKey: KEY,
          headers: { 'api-key': KEY, 'x-api-key': KEY },
          maxRetries: 2,
        }),
        size: 1,
      });
      await pool.load();
      const result = await pool.submit(ask);
      expect(result.status).toBe('error');
      expect(result.error).toBeInstanceOf(RedirectRefusedError);
      expect(result.error).toBeInstanceOf(ServerResponseError);
      const error = result.error as RedirectRefusedError;
      expect(error).toMatchObject({ name: 'RedirectRefusedError', status, retryable: false, kind: 'setup' });
      expect(error.message).toMatch(/redirect/i);
      expect(error.message).toContain(`${other.baseURL}/chat/completions`);
      expect(error.message).toMatch(/baseURL/);
      // Its query (which may carry a key) is not shown.
      expect(error.location).toBe(`${other.baseURL}/chat/completions`);
      expect(JSON.stringify({ message: error.message, location: error.location })).not.toContain(KEY);
      expect(other.requests).toHaveLength(0);
      // Not retried: a redirect is a setting, not a busy server.
      expect(server.requests.filter((r) => r.path.endsWith('/chat/completions'))).toHaveLength(1);
      await pool.unload();
    },
  );

  it('embeddings are refused the same way', async () => {
    const other = await elsewhere();
    const server = await redirecting(other, 307);
    const pool = new EnginePool({
      createEngine: openaiEngines({ baseURL: server.baseURL, model: 'test-model', headers: { 'x-api-key': KEY } }),
      size: 1,
    });
    await pool.load();
    const result = await pool.submit({ kind: 'embedding', params: { input: 'a' } });
    expect(result.error).toBeInstanceOf(RedirectRefusedError);
    expect(other.requests).toHaveLength(0);
    await pool.unload();
  });

  it('a fetch of your own that follows redirects anyway: the answer it got there is refused, not used', async () => {
    const other = await elsewhere();
    const server = await redirecting(other, 307);
    const pool = new EnginePool({
      createEngine: openaiEngines({
        baseURL: server.baseURL,
        model: 'test-model',
        maxRetries: 0,
        // Drops `redirect: 'manual'`, as a wrapper that rebuilds the init might.
        fetch: (input, { redirect: _ignored, ...init }) => fetch(input, init),
      }),
      size: 1,
    });
    await pool.load();
    const result = await pool.submit(ask);
    expect(result.status).toBe('error');
    expect(result.text).toBe('');
    expect(result.error).toBeInstanceOf(RedirectRefusedError);
    expect(result.error?.message).toMatch(/followed/);
    await pool.unload();
  });

  it('the requests say redirect: manual to the fetch', async () => {
    const seen: Array<RequestRedirect | undefined> = [];
    const server = await startServer();
    servers.push(server);
    const pool = new EnginePool({
      createEngine: openaiEngines({
        baseURL: server.baseURL,
        model: 'test-model',
        slots: 'auto',
        fetch: (input, init) => {
          seen.push(init.redirect);
          return fetch(input, init);
        },
      }),
      size: 1,
    });
    await pool.load();
    await pool.submit(ask);
    expect(seen.length).toBeGreaterThanOrEqual(3);
    expect(new Set(seen)).toEqual(new Set(['manual']));
    await pool.unload();
  });
});
