import { EnginePool, type ChatCompletionChunk, type Engine, InvalidOptionError } from '@inkling/scheduler';
import { afterEach, describe, expect, it } from 'vitest';
import { type OpenAIEnginesOptions, openaiEngines } from '../src/index.js';
import { type Routes, type TestServer, USAGE, chunk, json, openStream, send, startServer, streamReply } from './openaiServer.js';

let current: TestServer | undefined;
afterEach(async () => {
  await current?.close();
  current = undefined;
});

async function engineFor(routes: Routes = {}, extra: Partial<Parameters<typeof openaiEngines>[0]> = {}) {
  const server = await startServer(routes);
  current = server;
  const engine = await openaiEngines({ baseURL: server.baseURL, model: 'test-model', ...extra })(0, () => {});
  return { engine, server };
}

const toolCallChunk = (fragment: Record<string, unknown>) => ({
  ...chunk(undefined),
  choices: [{ index: 0, delta: { tool_calls: [fragment] }, finish_reason: null }],
});

async function collect(engine: Engine, content = 'Hi'): Promise<ChatCompletionChunk[]> {
  const stream = await engine.chat.completions.create({ messages: [{ role: 'user', content }], stream: true });
  const chunks: ChatCompletionChunk[] = [];
  for await (const c of stream) chunks.push(c);
  return chunks;
}

/** What a WebLLM engine emits: content chunks, one finish chunk, one usage chunk with no choices. */
function shape(chunks: ChatCompletionChunk[]) {
  return chunks.map((c) =>
    c.choices.length === 0
      ? `usage:${c.usage?.total_tokens}`
      : c.choices[0]?.finish_reason
        ? `finish:${c.choices[0].finish_reason}`
        : `text:${c.choices[0]?.delta.content}`,
  );
}

/** The message of the error `openaiEngines(options)` throws (an `InvalidOptionError`), or 'no error'. */
function optionMessage(options: object): string {
  let caught: unknown;
  try {
    openaiEngines({ baseURL: 'http://h/v1', model: 'm', ...options } as never);
  } catch (error) {
    caught = error;
  }
  if (caught === undefined) return 'no error';
  expect(caught).toBeInstanceOf(InvalidOptionError);
  return (caught as Error).message;
}

describe('streaming chat completions', () => {
  it('sends one streaming request with the model, usage asked for, and the key as a bearer token', async () => {
    const { engine, server } = await engineFor({}, { apiKey: 'sk-test-123456', headers: { 'X-Team': 'docs' } });
    await collect(engine);
    const request = server.requests.find((r) => r.path === '/v1/chat/completions');
    expect(request?.method).toBe('POST');
    expect(request?.body).toMatchObject({
      model: 'test-model',
      stream: true,
      stream_options: { include_usage: true },
      messages: [{ role: 'user', content: 'Hi' }],
    });
    expect(request?.headers.authorization).toBe('Bearer sk-test-123456');
    expect(request?.headers['x-team']).toBe('docs');
    expect(request?.headers.accept).toBe('text/event-stream');
  });

  it('emits chunks shaped like WebLLM: content, then a finish chunk, then the usage chunk with choices []', async () => {
    const { engine } = await engineFor({ chat: (req, res) => streamReply(req, res, ['Bon', 'jour']) });
    const chunks = await collect(engine);
    expect(shape(chunks)).toEqual(['text:Bon', 'text:jour', 'finish:stop', 'usage:9']);
    expect(chunks[0]).toMatchObject({
      id: 'chatcmpl-test',
      object: 'chat.completion.chunk',
      model: 'test-model',
      choices: [{ index: 0, delta: { role: 'assistant', content: 'Bon' }, finish_reason: null }],
    });
    expect(chunks.at(-1)?.usage).toEqual(USAGE);
  });

  it('splits a llama.cpp-style last chunk (content, finish and usage at once) into WebLLM order', async () => {
    const { engine } = await engineFor({
      chat: (_req, res) => {
        openStream(res);
        send(res, chunk('Hola'));
        send(res, chunk('!', 'stop', { usage: USAGE, timings: { predicted_per_second: 50 } }));
        send(res, '[DONE]');
        res.end();
      },
    });
    const chunks = await collect(engine);
    expect(shape(chunks)).toEqual(['text:Hola', 'text:!', 'finish:stop', 'usage:9']);
    expect(chunks.at(-1)?.usage?.extra).toEqual({ timings: { predicted_per_second: 50 } });
  });

  it('adds the finish chunk a server left out before [DONE], and drops repeated finishes', async () => {
    const { engine } = await engineFor({
      chat: (_req, res) => {
        openStream(res);
        send(res, chunk('a'));
        send(res, '[DONE]');
        res.end();
      },
    });
    expect(shape(await collect(engine))).toEqual(['text:a', 'finish:stop']);
    await current?.close();
    const second = await engineFor({
      chat: (_req, res) => {
        openStream(res);
        send(res, chunk('a', 'length'));
        send(res, chunk(undefined, 'length'));
        send(res, { ...chunk(undefined), choices: [], usage: USAGE });
        send(res, '[DONE]');
        res.end();
      },
    });
    expect(shape(await collect(second.engine))).toEqual(['text:a', 'finish:length', 'usage:9']);
  });

  it('assembles streamed tool-call fragments into whole calls on the finish chunk, as WebLLM emits them', async () => {
    const { engine } = await engineFor({
      chat: (_req, res) => {
        openStream(res);
        send(res, toolCallChunk({ index: 0, id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '' } }));
        send(res, toolCallChunk({ index: 0, function: { arguments: '{"city":' } }));
        send(res, toolCallChunk({ index: 0, function: { arguments: '"Paris"}' } }));
        send(res, chunk(undefined, 'tool_calls'));
        send(res, '[DONE]');
        res.end();
      },
    });
    const chunks = await collect(engine);
    expect(shape(chunks)).toEqual(['finish:tool_calls']);
    expect(chunks[0]?.choices[0]?.delta.tool_calls).toEqual([
      { id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
    ]);
  });

  it('reads SSE as the spec says: comments, event names, CRLF, and lines split across network writes', async () => {
    const { engine } = await engineFor({
      chat: async (_req, res) => {
        openStream(res);
        const text = `: keep-alive\r\n\r\nevent: message\r\ndata: ${JSON.stringify(chunk('Hel'))}\r\n\r\ndata: ${JSON.stringify(chunk('lo'))}\r\n\r\ndata: [DONE]\r\n\r\n`;
        // Byte by byte in places: a line, and a CRLF, cut in two.
        for (const piece of [text.slice(0, 20), text.slice(20, 40), ...text.slice(40).match(/[\s\S]{1,7}/g)!]) {
          res.write(piece);
          await new Promise((resolve) => setImmediate(resolve));
        }
        res.end();
      },
    });
    expect(shape(await collect(engine))).toEqual(['text:Hel', 'text:lo', 'finish:stop']);
  });

  it('reads a server that ignored stream: true and answered in one JSON body', async () => {
    const { engine } = await engineFor({
      chat: (_req, res) =>
        json(res, 200, {
          id: 'chatcmpl-1',
          object: 'chat.completion',
          model: 'test-model',
          choices: [{ index: 0, message: { role: 'assistant', content: 'Whole answer' }, finish_reason: 'stop' }],
          usage: USAGE,
        }),
    });
    expect(shape(await collect(engine))).toEqual(['text:Whole answer', 'finish:stop', 'usage:9']);
  });

  it('runs a job through a pool: the result has the text, the server usage and the finish reason', async () => {
    const server = await startServer({ chat: (req, res) => streamReply(req, res, ['One', ' two'], { finish: 'length' }) });
    current = server;
    const pool = new EnginePool({ createEngine: openaiEngines({ baseURL: server.baseURL, model: 'test-model' }), size: 1 });
    const progress: string[] = [];
    await pool.load((r) => progress.push(r.text));
    const seen: ChatCompletionChunk[] = [];
    const result = await pool.submit({
      params: { messages: [{ role: 'user', content: 'x' }], max_tokens: 2 },
      onChunk: (c) => seen.push(c),
    });
    expect(result).toMatchObject({ status: 'done', text: 'One two', finishReason: 'length', usage: USAGE, engineIndex: 0 });
    expect(result.startedAt).toEqual(expect.any(Number));
    expect(result.firstTokenAt).toBeGreaterThanOrEqual(result.startedAt!);
    expect(shape(seen)).toEqual(['text:One', 'text: two', 'finish:length', 'usage:9']);
    expect(progress.at(-1)).toMatch(/Connected to http:\/\/127\.0\.0\.1:\d+\/v1/);
    expect(pool.getSnapshot().engines[0]?.concurrency).toBe(8);
    await pool.unload();
  });
});

describe('embeddings', () => {
  it('posts /embeddings with the model and returns the vectors in input order with usage', async () => {
    const { engine, server } = await engineFor();
    const response = await engine.embeddings!.create({ input: ['a', 'bbb'] });
    expect(server.requests.at(-1)?.body).toEqual({ input: ['a', 'bbb'], model: 'test-model' });
    expect(response.data.map((d) => d.embedding)).toEqual([
      [1, 0],
      [3, 1],
    ]);
    expect(response.usage).toEqual({ prompt_tokens: 2, total_tokens: 2 });
  });

  it('runs embedding jobs through the pool', async () => {
    const server = await startServer();
    current = server;
    const pool = new EnginePool({ createEngine: openaiEngines({ baseURL: server.baseURL, model: 'test-model' }), size: 1 });
    await pool.load();
    const result = await pool.submit({ kind: 'embedding', params: { input: 'hello' } });
    expect(result).toMatchObject({ status: 'done', embeddings: [{ index: 0, embedding: [5, 0] }] });
    await pool.unload();
  });
});

describe('openaiEngines options', () => {
  it('says what is wrong with an option, at once', () => {
    expect(() => openaiEngines({ baseURL: 'localhost:8000', model: 'm' })).toThrow(InvalidOptionError);
    expect(() => openaiEngines({ baseURL: 'localhost:8000', model: 'm' })).toThrow(/baseURL.*http:\/\/localhost:8000\/v1/);
    expect(() => openaiEngines({ baseURL: 'http://h/v1', model: '' })).toThrow(/"model"/);
    expect(() => openaiEngines({ baseURL: 'http://h/v1', model: 'm', concurrency: 0 })).toThrow(/"concurrency".*got 0/);
    expect(() => openaiEngines({ baseURL: 'http://h/v1', model: 'm', maxRetries: -1 })).toThrow(/"maxRetries"/);
  });

  it('names the first wrong option in one sentence, and never quotes a key, a header or a salt', () => {
    expect(optionMessage({ baseURL: 'localhost:8000' })).toBe(
      `openaiEngines() "baseURL" must be the server's API base with its /v1, e.g. 'http://localhost:8000/v1'; it got "localhost:8000".`,
    );
    expect(optionMessage({ concurrency: 0, maxRetries: -1 })).toMatch(/^openaiEngines\(\) "concurrency" must be .*; it got 0\.$/);
    expect(optionMessage({ apiKey: ['sk-secret'] })).toBe('openaiEngines() "apiKey" must be a string.');
    expect(optionMessage({ headers: { 'x-api-key': ['sk-secret'] } })).not.toContain('sk-secret');
    expect(optionMessage({ cacheSalt: 'x'.repeat(1025) })).not.toContain('xxx');
    expect(optionMessage({ priority: { field: 'p', map: { interactive: 0, high: 1, normal: 2 } } })).toMatch(
      /"priority.map" .*"low" is undefined/,
    );
  });

  it('refuses an option it does not take, naming the near one (case aside) and never a value', () => {
    expect(optionMessage({ baseUrl: 'http://h/v1' })).toMatch(
      /^openaiEngines\(\) has no option "baseUrl" \(did you mean "baseURL"\?\): remove or rename it\. Its options: baseURL, model, apiKey, headers, concurrency, .*, priority\.$/,
    );
    expect(optionMessage({ maxRetry: 2 })).toContain('has no option "maxRetry" (did you mean "maxRetries"?)');
    expect(optionMessage({ api_key: 'sk-secret' })).not.toContain('sk-secret');
    expect(optionMessage({ lanes: undefined })).toBe('no error');
  });

  it('takes every option it documents', () => {
    const all: Required<OpenAIEnginesOptions> = {
      baseURL: 'http://h/v1',
      model: 'm',
      apiKey: 'k',
      headers: { 'X-Team': 'a' },
      fetch: async () => new Response(),
      concurrency: 2,
      maxRetries: 1,
      maxRetryDelayMs: 10,
      connectTimeoutMs: 10,
      stallTimeoutMs: 10,
      maxEventBytes: 100,
      maxResponseBytes: 1000,
      maxResponseMs: 10,
      timers: { setTimeout, clearTimeout },
      random: Math.random,
      now: Date.now,
      priority: 'vllm',
      sessionAffinity: { promptCacheKey: true },
      slots: 'auto',
      cacheSalt: 's',
      reserveLane: true,
      fim: 'infill',
    };
    expect(optionMessage(all)).toBe('no error');
  });

  it('exposes concurrency (default 8) so the pool gives the engine that many lanes', async () => {
    const { engine, server } = await engineFor({}, { concurrency: 3 });
    expect(engine.concurrency).toBe(3);
    const byDefault = await openaiEngines({ baseURL: server.baseURL, model: 'm' })(0, () => {});
    expect(byDefault.concurrency).toBe(8);
  });

  it('uses the fetch it is given, looked up per call', async () => {
    const server = await startServer();
    current = server;
    const urls: string[] = [];
    const engine = await openaiEngines({
      baseURL: `${server.baseURL}/`,
      model: 'test-model',
      fetch: (input, init) => {
        urls.push(input);
        return fetch(input, init);
      },
    })(0, () => {});
    await collect(engine);
    expect(urls).toEqual([`${server.baseURL}/models`, `${server.baseURL}/chat/completions`]);
  });
});
