import { EnginePool, EngineError, type ChatCompletionChunk } from '@inkling/scheduler';
import { afterEach, describe, expect, it } from 'vitest';
import { type OpenAIEngine, openaiEngines } from '../src/index.js';
import { type ReceivedRequest, type TestServer, USAGE, gate, startServer, streamReply, until } from './openaiServer.js';

const TOKENS = Array.from({ length: 100 }, (_, i) => ` w${i}`);

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A server that streams 100 tokens (or `max_tokens`, when the request sets it), one every `delayMs`. */
async function slowServer(delayMs = 15) {
  server = await startServer({
    chat: (req, res) => streamReply(req, res, TOKENS.slice(0, req.body.max_tokens ?? TOKENS.length), { delayMs }),
  });
  return server;
}

function chats(s: TestServer): ReceivedRequest[] {
  return s.requests.filter((r) => r.path.endsWith('/chat/completions'));
}

async function poolOn(s: TestServer, concurrency = 4) {
  const pool = new EnginePool({ createEngine: openaiEngines({ baseURL: s.baseURL, model: 'test-model', concurrency }), size: 1 });
  await pool.load();
  return pool;
}

const ask = (extra: Record<string, unknown> = {}) => ({ params: { messages: [{ role: 'user' as const, content: 'x' }] }, ...extra });

describe('cancellation aborts the HTTP request', () => {
  it('cancel(): the server sees the connection close; the job keeps its partial text', async () => {
    const s = await slowServer();
    const pool = await poolOn(s);
    const job = pool.submit(ask({ id: 'j' }));
    await until(() => (pool.getSnapshot().jobs[0]?.tokens ?? 0) >= 3);
    pool.cancel('j');
    const result = await job;
    expect(result).toMatchObject({ status: 'cancelled', cancelReason: 'cancel', finishReason: 'abort' });
    expect(result.text.length).toBeGreaterThan(0);
    const [request] = chats(s);
    await request!.done;
    expect(request!.aborted).toBe(true);
    await pool.unload();
  });

  it('supersession: the older request of the session is aborted on the server, the newer one completes', async () => {
    const s = await slowServer(5);
    const pool = await poolOn(s);
    const first = pool.submit(ask({ session: 'ghost', priority: 'interactive' }));
    await until(() => (pool.getSnapshot().jobs[0]?.tokens ?? 0) >= 2);
    const second = pool.submit(
      ask({ session: 'ghost', priority: 'interactive', params: { messages: [{ role: 'user', content: 'y' }], max_tokens: 8 } }),
    );
    expect(await first).toMatchObject({ status: 'cancelled', cancelReason: 'supersede' });
    const older = chats(s)[0]!;
    await older.done;
    expect(older.aborted).toBe(true);
    expect((await second).status).toBe('done');
    expect(chats(s)[1]!.aborted).toBe(false);
    await pool.unload();
  });

  it('an AbortSignal that fires before the server answered aborts the request before any byte', async () => {
    // The server answers only when the test lets it, after the assertions: the
    // request can only end before that by the client closing it.
    const { opened: answered, open: answer } = gate();
    server = await startServer({
      chat: async (req, res) => {
        await answered;
        if (!req.closed) await streamReply(req, res, ['late']);
      },
    });
    const pool = await poolOn(server);
    const controller = new AbortController();
    const job = pool.submit(ask({ signal: controller.signal }));
    await until(() => chats(server!).length === 1);
    controller.abort();
    expect(await job).toMatchObject({ status: 'cancelled', cancelReason: 'abort', text: '' });
    const [request] = chats(server);
    await request!.done;
    expect(request!.aborted).toBe(true);
    answer();
    await pool.unload();
  });

  it('a one-lane engine (concurrency: 1) is stopped through interruptGenerate, and the server sees it', async () => {
    const s = await slowServer();
    const pool = await poolOn(s, 1);
    const job = pool.submit(ask({ id: 'solo' }));
    await until(() => (pool.getSnapshot().jobs[0]?.tokens ?? 0) >= 2);
    pool.cancel('solo');
    expect((await job).status).toBe('cancelled');
    await chats(s)[0]!.done;
    expect(chats(s)[0]!.aborted).toBe(true);
    // The engine takes the next job at once: an interrupt leaves no flag behind.
    const next = await pool.submit(ask({ params: { messages: [{ role: 'user', content: 'z' }], max_tokens: 1 } }));
    expect(next.status).toBe('done');
    await pool.unload();
  });
});

async function engine(s: TestServer): Promise<OpenAIEngine> {
  return (await openaiEngines({ baseURL: s.baseURL, model: 'test-model' })(0, () => {})) as OpenAIEngine;
}

function read(stream: AsyncIterable<ChatCompletionChunk>) {
  const chunks: ChatCompletionChunk[] = [];
  const done = (async () => {
    for await (const c of stream) chunks.push(c);
    return chunks;
  })();
  return { chunks, done };
}

describe('the engine', () => {
  const request = { messages: [{ role: 'user' as const, content: 'x' }], stream: true as const };

  it('a call\'s signal aborts that call only; its stream ends with finish_reason "abort"', async () => {
    const s = await slowServer(5);
    const e = await engine(s);
    const controller = new AbortController();
    const a = read(await e.chat.completions.create(request, { signal: controller.signal }));
    const b = read(await e.chat.completions.create({ ...request, max_tokens: 10 })); // short: it runs to its end
    expect(e.inFlight).toBe(2);
    await until(() => a.chunks.length >= 2);
    controller.abort();
    const chunksA = await a.done;
    expect(chunksA.at(-1)?.choices[0]?.finish_reason).toBe('abort');
    expect((await b.done).at(-1)?.usage).toEqual(USAGE);
    const [ra, rb] = chats(s);
    await ra!.done;
    expect([ra!.aborted, rb!.aborted]).toEqual([true, false]);
    expect(e.inFlight).toBe(0);
  });

  it('interruptGenerate() aborts every call in flight on that engine, and none on another', async () => {
    const s = await slowServer(5);
    const [e1, e2] = [await engine(s), await engine(s)];
    const streams = [read(await e1.chat.completions.create(request)), read(await e1.chat.completions.create(request))];
    const other = read(await e2.chat.completions.create({ ...request, max_tokens: 10 })); // short: it runs to its end
    await until(() => streams.every((x) => x.chunks.length >= 1));
    e1.interruptGenerate();
    for (const x of streams) expect((await x.done).at(-1)?.choices[0]?.finish_reason).toBe('abort');
    expect((await other.done).some((c) => c.choices[0]?.finish_reason === 'stop')).toBe(true);
    await until(() => chats(s).filter((r) => r.aborted).length === 2);
  });

  it('a stream closed before its first read aborts the request (the pool does this for a job stopped while connecting)', async () => {
    const s = await slowServer();
    const e = await engine(s);
    const stream = (await e.chat.completions.create(request)) as AsyncGenerator<ChatCompletionChunk>;
    await stream.return(undefined);
    await chats(s)[0]!.done;
    expect(chats(s)[0]!.aborted).toBe(true);
    expect(e.inFlight).toBe(0);
  });

  it('unload() aborts what is in flight and refuses later calls', async () => {
    const s = await slowServer();
    const e = await engine(s);
    const a = read(await e.chat.completions.create(request));
    await until(() => a.chunks.length >= 1);
    await e.unload();
    expect((await a.done).at(-1)?.choices[0]?.finish_reason).toBe('abort');
    await expect(e.chat.completions.create(request)).rejects.toBeInstanceOf(EngineError);
    await expect(e.chat.completions.create(request)).rejects.toThrow(/was unloaded/);
  });
});
