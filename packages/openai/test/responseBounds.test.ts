/// <reference types="node" />
import type { ServerResponse } from 'node:http';
import { EnginePool, InvalidOptionError } from '@inkling/scheduler';
import { afterEach, describe, expect, it } from 'vitest';
import { ServerError, StreamInterruptedError, openaiEngines } from '../src/index.js';
import { type ReceivedRequest, type Routes, type TestServer, json, startServer, streamReply, until } from './openaiServer.js';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const NEVER = Number.POSITIVE_INFINITY;
const ask = (extra: Record<string, unknown> = {}) => ({ params: { messages: [{ role: 'user' as const, content: 'x' }], ...extra } });
const TOKENS = Array.from({ length: 1000 }, (_, i) => ` t${i}`);

/** Timers whose callbacks run only when the test fires their delay. */
function firedTimers() {
  let next = 0;
  const pending = new Map<number, { callback: () => void; ms: number }>();
  return {
    setTimeout: (callback: () => void, ms: number): unknown => {
      pending.set(++next, { callback, ms });
      return next;
    },
    clearTimeout: (handle: unknown): void => {
      pending.delete(handle as number);
    },
    waits: (): number[] => [...pending.values()].map((p) => p.ms),
    /** Runs the pending waits of `ms`. */
    fire: (ms: number): void => {
      for (const [handle, wait] of [...pending]) {
        if (wait.ms !== ms) continue;
        pending.delete(handle);
        wait.callback();
      }
    },
  };
}

async function poolWith(routes: Routes, extra: Partial<Parameters<typeof openaiEngines>[0]> = {}) {
  server = await startServer(routes);
  const pool = new EnginePool({
    createEngine: openaiEngines({ baseURL: server.baseURL, model: 'test-model', maxRetries: 0, ...extra }),
    size: 1,
  });
  await pool.load();
  return pool;
}

const requestsTo = (path: string) => server!.requests.filter((r) => r.path.endsWith(path));

/** Writes `bytes` of `piece` after `head`, waiting for the client to read, and stops when it goes away. */
async function endless(req: ReceivedRequest, res: ServerResponse, head: string, bytes: number): Promise<void> {
  res.write(head);
  const piece = 'x'.repeat(64 * 1024);
  for (let sent = 0; sent < bytes && !req.closed; sent += piece.length) {
    if (!res.write(piece)) await new Promise<void>((resolve) => res.once('drain', resolve).once('close', resolve));
  }
  res.end();
}

/** One character every `ms` ms, `count` times, until the client goes away. */
async function trickle(req: ReceivedRequest, res: ServerResponse, count: number, ms: number): Promise<void> {
  for (let i = 0; i < count && !req.closed; i += 1) {
    res.write('x');
    await new Promise((resolve) => setTimeout(resolve, ms));
  }
  res.end();
}

describe('the request bounds hold whatever the server does', () => {
  it('a stream that ignores max_tokens: 8 ends at 8 pieces with finish "length", and the request is closed', async () => {
    const pool = await poolWith({ chat: (req, res) => streamReply(req, res, TOKENS, { delayMs: 1 }) });
    const result = await pool.submit(ask({ max_tokens: 8 }));
    expect(requestsTo('/chat/completions')[0]!.body.max_tokens).toBe(8);
    expect(result).toMatchObject({ status: 'done', finishReason: 'length', text: TOKENS.slice(0, 8).join('') });
    await requestsTo('/chat/completions')[0]!.done;
    expect(requestsTo('/chat/completions')[0]!.aborted).toBe(true);
    await pool.unload();
  });

  it('an honest server that stops at max_tokens is not cut: its own finish and usage stand', async () => {
    const pool = await poolWith({ chat: (req, res) => streamReply(req, res, TOKENS.slice(0, 8), { finish: 'length' }) });
    const result = await pool.submit(ask({ max_tokens: 8 }));
    expect(result).toMatchObject({ status: 'done', finishReason: 'length', text: TOKENS.slice(0, 8).join('') });
    expect(result.usage).toMatchObject({ completion_tokens: 2 });
    await pool.unload();
  });

  it('a stream past maxResponseBytes: StreamInterruptedError that names it, text kept, request closed', async () => {
    const long = Array.from({ length: 1000 }, () => 'y'.repeat(100));
    const pool = await poolWith({ chat: (req, res) => streamReply(req, res, long, { delayMs: 1 }) }, { maxResponseBytes: 20_000 });
    const result = await pool.submit(ask());
    expect(result.status).toBe('error');
    expect(result.error).toBeInstanceOf(StreamInterruptedError);
    expect(result.error?.message).toMatch(/more than 20000 bytes in one answer \(maxResponseBytes\)/);
    expect(result.text.length).toBeGreaterThan(0);
    expect(result.text.length).toBeLessThan(20_000);
    await requestsTo('/chat/completions')[0]!.done;
    expect(requestsTo('/chat/completions')[0]!.aborted).toBe(true);
    await pool.unload();
  });

  it('a stream still going at maxResponseMs: StreamInterruptedError that names it, text kept, request closed', async () => {
    const timers = firedTimers();
    const pool = await poolWith(
      { chat: (req, res) => streamReply(req, res, TOKENS, { delayMs: 2 }) },
      { timers, maxResponseMs: 7777, stallTimeoutMs: NEVER, connectTimeoutMs: NEVER },
    );
    const job = pool.submit(ask());
    await until(() => (pool.getSnapshot().jobs[0]?.tokens ?? 0) >= 2);
    expect(timers.waits()).toEqual([7777]);
    timers.fire(7777);
    const result = await job;
    expect(result.error).toBeInstanceOf(StreamInterruptedError);
    expect(result.error?.message).toMatch(/still answering 7777 ms after it began \(maxResponseMs\)/);
    expect(result.text).toMatch(/^ t0 t1/);
    await requestsTo('/chat/completions')[0]!.done;
    expect(requestsTo('/chat/completions')[0]!.aborted).toBe(true);
    await pool.unload();
  });

  it('an embeddings answer past maxResponseBytes is closed, typed', async () => {
    const pool = await poolWith(
      { embeddings: (req, res) => endless(req, res, '{"object":"list","data":[{"embedding":[', 8 * 1024 * 1024) },
      { maxResponseBytes: 100_000 },
    );
    const result = await pool.submit({ kind: 'embedding', params: { input: 'a' } });
    expect(result.error).toBeInstanceOf(StreamInterruptedError);
    expect(result.error?.message).toMatch(/maxResponseBytes/);
    await requestsTo('/embeddings')[0]!.done;
    expect(requestsTo('/embeddings')[0]!.aborted).toBe(true);
    await pool.unload();
  });

  it.each([
    ['maxResponseBytes', 0],
    ['maxResponseBytes', 1.5],
    ['maxResponseMs', -1],
    ['maxResponseMs', Number.NaN],
  ] as const)('a wrong %s (%s) is refused at once, by name', (key, value) => {
    expect(() => openaiEngines({ baseURL: 'http://127.0.0.1:1/v1', model: 'm', [key]: value })).toThrow(InvalidOptionError);
    expect(() => openaiEngines({ baseURL: 'http://127.0.0.1:1/v1', model: 'm', [key]: value })).toThrow(key);
  });
});

describe('error bodies are read capped and timed', () => {
  it('an error status whose body never ends: ServerError with its start, and the body is let go', async () => {
    const pool = await poolWith({
      chat: (req, res) => {
        res.writeHead(500, { 'Content-Type': 'text/plain' });
        return endless(req, res, 'boom: ', 32 * 1024 * 1024);
      },
    });
    const result = await pool.submit(ask());
    expect(result.error).toBeInstanceOf(ServerError);
    expect(result.error?.message).toMatch(/The server said: boom: x+/);
    await requestsTo('/chat/completions')[0]!.done;
    expect(requestsTo('/chat/completions')[0]!.aborted).toBe(true);
    await pool.unload();
  });

  it('an error body that trickles without end is given up within the bound', async () => {
    const timers = firedTimers();
    const pool = await poolWith(
      {
        chat: (req, res) => {
          res.writeHead(500, { 'Content-Type': 'text/plain' });
          return trickle(req, res, 5000, 2);
        },
      },
      { timers, maxResponseMs: 4321, stallTimeoutMs: NEVER, connectTimeoutMs: NEVER },
    );
    const job = pool.submit(ask());
    await until(() => timers.waits().includes(4321));
    timers.fire(4321);
    const result = await job;
    expect(result.error).toBeInstanceOf(ServerError);
    expect(result.error?.message).toMatch(/The server said: x+/);
    await requestsTo('/chat/completions')[0]!.done;
    expect(requestsTo('/chat/completions')[0]!.aborted).toBe(true);
    await pool.unload();
  });
});

describe("llama.cpp's /props and /slots are read capped and timed", () => {
  it('a /props whose body never ends: the engine is built without pinned slots, and the body is let go', async () => {
    const pool = await poolWith(
      {
        other: (req, res) => {
          if (!req.path.startsWith('/props')) return json(res, 404, { error: 'no' });
          res.writeHead(200, { 'Content-Type': 'application/json' });
          return endless(req, res, '{"total_slots":2,"pad":"', 32 * 1024 * 1024);
        },
      },
      { slots: 'auto' },
    );
    expect(await pool.submit(ask())).toMatchObject({ status: 'done' });
    expect(requestsTo('/chat/completions')[0]!.body).toMatchObject({ cache_prompt: true });
    expect(requestsTo('/chat/completions')[0]!.body.id_slot).toBeUndefined();
    await requestsTo('/props')[0]!.done;
    expect(requestsTo('/props')[0]!.aborted).toBe(true);
    await pool.unload();
  });

  it('a /props that never answers: given up at connectTimeoutMs, then /slots is asked', async () => {
    const timers = firedTimers();
    server = await startServer({
      other: (req, res) => (req.path.startsWith('/slots') ? json(res, 200, [{ id: 0 }, { id: 1 }, { id: 2 }]) : undefined),
    });
    const building = openaiEngines({ baseURL: server.baseURL, model: 'test-model', slots: 'auto', timers, connectTimeoutMs: 3333 })(
      0,
      () => {},
    );
    await until(() => requestsTo('/props').length === 1 && timers.waits().includes(3333));
    timers.fire(3333);
    const engine = await building;
    await engine.chat.completions.create({ messages: [{ role: 'user', content: 'x' }], stream: true }, { job: jobOf('editor-a') });
    expect(requestsTo('/chat/completions')[0]!.body.id_slot).toBe(0);
    await engine.unload?.();
  });
});

function jobOf(session: string) {
  return { id: 'j', kind: 'chat' as const, task: session, session, priority: 'interactive' as const, preemptible: false, owner: undefined };
}
