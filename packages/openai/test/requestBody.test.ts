import { EnginePool, InvalidSchemaError } from '@inkling/scheduler';
import { isFatalEngineError } from '@inkling/scheduler/engine';
import { afterEach, describe, expect, it } from 'vitest';
import { BadRequestError, ServerUnreachableError, openaiEngines } from '../src/index.js';
import { type TestServer, startServer, streamReply, until } from './openaiServer.js';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const TOKENS = Array.from({ length: 30 }, (_, i) => ` t${i}`);

async function poolWithSlowStream() {
  server = await startServer({ chat: (req, res) => streamReply(req, res, TOKENS, { delayMs: 5 }) });
  const built: number[] = [];
  const createEngine = openaiEngines({ baseURL: server.baseURL, model: 'test-model', concurrency: 4 });
  const pool = new EnginePool({ createEngine: (i, p) => (built.push(i), createEngine(i, p)), size: 1 });
  await pool.load();
  return { pool, built, server };
}

const messages = [{ role: 'user' as const, content: 'x' }];

describe('a request body that cannot be serialized', () => {
  it.each([
    ['a BigInt', () => ({ messages, seed: 7n }), /params\.seed is a BigInt/],
    [
      'a circular object',
      () => {
        const meta: Record<string, unknown> = { name: 'loop' };
        meta.self = meta;
        return { messages, metadata: meta };
      },
      /params\.metadata\.self refers back to params\.metadata/,
    ],
  ])('(%s) fails that job alone with BadRequestError; other streams go on and the engine is kept', async (_name, params, says) => {
    const { pool, built, server: s } = await poolWithSlowStream();
    const healthy = pool.submit({ params: { messages } });
    await until(() => (pool.getSnapshot().jobs[0]?.tokens ?? 0) >= 2);
    const bad = await pool.submit({ params: params() as never });
    expect(bad.status).toBe('error');
    expect(bad.error).toBeInstanceOf(BadRequestError);
    expect(bad.error?.message).toMatch(says);
    expect(bad.error?.message).toMatch(/could not be sent as JSON/);
    expect(bad.error).toMatchObject({ status: 0, retryable: false });
    expect(isFatalEngineError(bad.error)).toBe(false);
    expect(await healthy).toMatchObject({ status: 'done', text: TOKENS.join('') });
    expect(built).toEqual([0]);
    expect(pool.getSnapshot().phase).toBe('ready');
    // Nothing was sent for the bad job.
    expect(s.requests.filter((r) => r.path.endsWith('/chat/completions'))).toHaveLength(1);
    await pool.unload();
  });

  it('in an embedding job too', async () => {
    server = await startServer();
    const pool = new EnginePool({ createEngine: openaiEngines({ baseURL: server.baseURL, model: 'test-model' }), size: 1 });
    await pool.load();
    const { error } = await pool.submit({ kind: 'embedding', params: { input: 'a', dimensions: 3n } as never });
    expect(error).toBeInstanceOf(BadRequestError);
    expect(error?.message).toMatch(/params\.dimensions is a BigInt/);
    await pool.unload();
  });
});

describe('only a failure to connect is ServerUnreachableError', () => {
  it('a fetch of your own that throws something else fails that job alone; the engine is kept', async () => {
    server = await startServer();
    let calls = 0;
    const built: number[] = [];
    const createEngine = openaiEngines({
      baseURL: server.baseURL,
      model: 'test-model',
      fetch: (input, init) => (++calls === 2 ? Promise.reject(new Error('token refresh failed')) : fetch(input, init)),
    });
    const pool = new EnginePool({ createEngine: (i, p) => (built.push(i), createEngine(i, p)), size: 1 });
    await pool.load();
    const { error } = await pool.submit({ params: { messages } });
    expect(error).not.toBeInstanceOf(ServerUnreachableError);
    expect(isFatalEngineError(error)).toBe(false);
    expect(error?.message).toMatch(/The fetch given to openaiEngines\(\) failed the request .*token refresh failed.*only this job fails/);
    expect(await pool.submit({ params: { messages } })).toMatchObject({ status: 'done' });
    expect(built).toEqual([0]);
    await pool.unload();
  });
});

describe('a schema-constrained job', () => {
  it('sends its json_schema to the server as it is, and refuses one outside the portable subset before any request', async () => {
    server = await startServer({ chat: (req, res) => streamReply(req, res, ['{"a":', '"x"}']) });
    const pool = new EnginePool({ createEngine: openaiEngines({ baseURL: server.baseURL, model: 'test-model' }), size: 1 });
    await pool.load();
    const schema = { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] } as const;
    const ok = await pool.submit({ params: { messages, response_format: { type: 'json_schema', json_schema: { name: 'o', schema } } } });
    expect(ok.status).toBe('done');
    const chats = () => server?.requests.filter((r) => r.path.endsWith('/chat/completions')) ?? [];
    expect(chats()[0]?.body.response_format).toEqual({ type: 'json_schema', json_schema: { name: 'o', schema } });
    const bad = await pool.submit({
      params: {
        messages,
        response_format: { type: 'json_schema', json_schema: { schema: { type: 'object', if: { type: 'string' } } as never } },
      },
    });
    expect(bad.error).toBeInstanceOf(InvalidSchemaError);
    expect((bad.error as InvalidSchemaError).path).toBe('if');
    expect(chats()).toHaveLength(1);
    await pool.unload();
  });
});
