import { EnginePool } from '@inkling/scheduler';
import { speculativeSession } from '@inkling/scheduler/engine';
import { afterEach, describe, expect, it } from 'vitest';
import { type OpenAIEnginesOptions, fimParams, openaiEngines } from '../src/index.js';
import { type Routes, type TestServer, chunk, gate, json, openStream, send, startServer, streamReply, until } from './openaiServer.js';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function setup(options: Partial<OpenAIEnginesOptions>, routes: Routes = {}) {
  server = await startServer(routes);
  const pool = new EnginePool({ createEngine: openaiEngines({ baseURL: server.baseURL, model: 'test-model', ...options }), size: 1 });
  await pool.load();
  const bodies = (path = '/chat/completions') => server!.requests.filter((r) => r.path.endsWith(path)).map((r) => r.body);
  return { pool, bodies };
}

const make = (extra: object) => () => openaiEngines({ baseURL: 'http://x.test/v1', model: 'm', ...extra });
const say = (content: string) => ({ messages: [{ role: 'user' as const, content }] });
const HINT_FIELDS = ['priority', 'prompt_cache_key', 'cache_prompt', 'id_slot', 'cache_salt', 'nvext', 'fim'];

describe('what the engine tells the server about each job', () => {
  it('by default: nothing beyond the params (no priority, cache key, slot, salt), and no extra header', async () => {
    const { pool, bodies } = await setup({});
    await pool.submit({ session: 'editor', priority: 'interactive', params: say('a') });
    await pool.submit({ task: 'batch', params: say('b') });
    for (const body of bodies()) for (const field of HINT_FIELDS) expect(body).not.toHaveProperty(field);
    expect(Object.keys(server!.requests.at(-1)!.headers).filter((h) => h.startsWith('x-'))).toEqual([]);
    await pool.unload();
  });

  it('sessionAffinity: the session as prompt_cache_key and in the header (percent-encoded); nothing for a job without one or an embedding', async () => {
    const { pool, bodies } = await setup({
      sessionAffinity: { promptCacheKey: true, header: 'x-session-affinity' },
      cacheSalt: 'tenant-42',
    });
    await pool.submit({ session: 'editor ä', params: say('a') });
    await pool.submit({ task: 'batch', params: say('b') });
    await pool.submit({ kind: 'embedding', session: 'search', params: { input: ['x'] } });
    const [withSession, without] = bodies();
    expect(withSession).toMatchObject({ prompt_cache_key: 'editor ä', cache_salt: 'tenant-42' });
    expect(without).not.toHaveProperty('prompt_cache_key');
    expect(without).toMatchObject({ cache_salt: 'tenant-42' });
    const chats = server!.requests.filter((r) => r.path.endsWith('/chat/completions'));
    expect(chats[0]!.headers['x-session-affinity']).toBe('editor%20%C3%A4');
    expect(chats[1]!.headers['x-session-affinity']).toBeUndefined();
    const [embedding] = bodies('/embeddings');
    expect(embedding).not.toHaveProperty('prompt_cache_key');
    expect(server!.requests.find((r) => r.path.endsWith('/embeddings'))!.headers['x-session-affinity']).toBe('search');
    await pool.unload();
  });

  it("slots: 'auto' reads llama.cpp's slot count once from /props and pins each session to a slot of its own, with cache_prompt", async () => {
    const { pool, bodies } = await setup(
      { slots: 'auto' },
      { other: (req, res) => (req.path === '/props' ? json(res, 200, { total_slots: 2 }) : json(res, 404, {})) },
    );
    for (const session of ['editor-a', 'editor-b', 'editor-a', 'editor-b', 'editor-a'])
      await pool.submit({ session, priority: 'interactive', params: say(session) });
    await pool.submit({ task: 'batch', params: say('item') });
    expect(bodies().map((b) => b.id_slot)).toEqual([0, 1, 0, 1, 0, undefined]);
    expect(bodies().every((b) => b.cache_prompt === true)).toBe(true);
    // Asked once, at the server's root (not under /v1).
    expect(server!.requests.filter((r) => r.path === '/props')).toHaveLength(1);
    await pool.unload();
  });

  it("ghost text's speculation shares its editor's slot and cache key, so two editors keep a slot each", async () => {
    const { pool, bodies } = await setup(
      { slots: 'auto', sessionAffinity: { promptCacheKey: true, header: 'x-session-affinity' } },
      { other: (req, res) => (req.path === '/props' ? json(res, 200, { total_slots: 2 }) : json(res, 404, {})) },
    );
    // What useGhostText sends with its defaults: a keystroke, then the next suggestion asked ahead, low and preemptible.
    await pool.submit({ session: 'editor-a', priority: 'interactive', params: say('a') });
    await pool.submit({ session: speculativeSession('editor-a'), priority: 'low', preemptible: true, params: say('a next') });
    await pool.submit({ session: 'editor-b', priority: 'interactive', params: say('b') });
    await pool.submit({ session: speculativeSession('editor-b'), priority: 'low', preemptible: true, params: say('b next') });
    await pool.submit({ session: 'editor-a', priority: 'interactive', params: say('a again') });
    expect(bodies().map((b) => b.id_slot)).toEqual([0, 0, 1, 1, 0]);
    expect(bodies().map((b) => b.prompt_cache_key)).toEqual(['editor-a', 'editor-a', 'editor-b', 'editor-b', 'editor-a']);
    const chats = server!.requests.filter((r) => r.path.endsWith('/chat/completions'));
    expect(chats.map((r) => r.headers['x-session-affinity'])).toEqual(['editor-a', 'editor-a', 'editor-b', 'editor-b', 'editor-a']);
    await pool.unload();
  });

  it("slots: 'auto' on a server without /props or /slots sends cache_prompt alone", async () => {
    const { pool, bodies } = await setup({ slots: 'auto' });
    await pool.submit({ session: 'editor', params: say('a') });
    expect(bodies()[0]).toMatchObject({ cache_prompt: true });
    expect(bodies()[0]).not.toHaveProperty('id_slot');
    await pool.unload();
  });

  it('a wrong hint option fails at once and says what is wrong', () => {
    expect(make({ slots: 0 })).toThrow(/"slots" must be the server's slot count/);
    expect(make({ sessionAffinity: { header: 'two words' } })).toThrow(/"sessionAffinity"/);
    expect(make({ cacheSalt: '' })).toThrow(/"cacheSalt"/);
    expect(make({ fim: 'suffix' })).toThrow(/"fim" must be 'completions' or 'infill'/);
    expect(make({ reserveLane: 'no' })).toThrow(/"reserveLane"/);
  });
});

describe('usage.cachedTokens, from the server’s own field', () => {
  it('reads usage.prompt_tokens_details.cached_tokens (OpenAI, vLLM)', async () => {
    const { pool } = await setup(
      {},
      {
        chat: (req, res) =>
          streamReply(req, res, ['ok'], {
            usage: { prompt_tokens: 40, completion_tokens: 1, total_tokens: 41, prompt_tokens_details: { cached_tokens: 32 } },
          }),
      },
    );
    expect((await pool.submit({ params: say('a') })).usage).toMatchObject({ prompt_tokens: 40, cachedTokens: 32 });
    await pool.unload();
  });

  it("reads llama.cpp's timings.cache_n when usage has no details", async () => {
    const { pool } = await setup(
      {},
      {
        chat: (_req, res) => {
          openStream(res);
          send(res, chunk('ok'));
          send(
            res,
            chunk(undefined, 'stop', {
              usage: { prompt_tokens: 40, completion_tokens: 1, total_tokens: 41 },
              timings: { cache_n: 39, prompt_n: 1 },
            }),
          );
          send(res, '[DONE]');
          res.end();
        },
      },
    );
    expect((await pool.submit({ params: say('a') })).usage).toMatchObject({ prompt_tokens: 40, cachedTokens: 39 });
    await pool.unload();
  });
});

describe('fill-in-the-middle', () => {
  const ghost = fimParams({ before: 'def add(a, b):\n    return ', after: '\n\nprint(add(1, 2))', maxTokens: 8 });

  it("fim: 'infill' sends llama.cpp's /infill its prefix and suffix, and reads its own stream format", async () => {
    const { pool, bodies } = await setup(
      { fim: 'infill', slots: 2 },
      {
        other: (req, res) => {
          if (req.path !== '/infill') return json(res, 404, {});
          openStream(res);
          send(res, { content: 'a', stop: false });
          send(res, { content: ' + b', stop: false });
          send(res, { content: '', stop: true, stop_type: 'limit', tokens_evaluated: 30, tokens_predicted: 2, timings: { cache_n: 28 } });
          res.end();
        },
      },
    );
    const result = await pool.submit({ session: 'code', priority: 'interactive', params: ghost });
    expect(result).toMatchObject({
      status: 'done',
      text: 'a + b',
      finishReason: 'length',
      usage: { prompt_tokens: 30, completion_tokens: 2, cachedTokens: 28 },
    });
    expect(server!.requests.filter((r) => r.path === '/infill')).toHaveLength(1);
    expect(bodies('/infill')[0]).toMatchObject({
      input_prefix: 'def add(a, b):\n    return ',
      input_suffix: '\n\nprint(add(1, 2))',
      n_predict: 8,
      cache_prompt: true,
      id_slot: 0,
      stream: true,
    });
    expect(bodies('/infill')[0]).not.toHaveProperty('messages');
    // A job without `fim` still chats.
    await pool.submit({ params: say('hi') });
    expect(bodies()).toHaveLength(1);
    await pool.unload();
  });

  it("fim: 'completions' sends /completions a prompt and a suffix and reads its text chunks", async () => {
    const { pool, bodies } = await setup(
      { fim: 'completions', priority: 'vllm' },
      {
        other: (req, res) => {
          if (req.path !== '/v1/completions') return json(res, 404, {});
          openStream(res);
          send(res, { id: 'cmpl-1', object: 'text_completion', choices: [{ index: 0, text: 'a + b', finish_reason: null }] });
          send(res, { id: 'cmpl-1', object: 'text_completion', choices: [{ index: 0, text: '', finish_reason: 'stop' }] });
          send(res, {
            id: 'cmpl-1',
            object: 'text_completion',
            choices: [],
            usage: { prompt_tokens: 30, completion_tokens: 3, total_tokens: 33, prompt_tokens_details: { cached_tokens: 16 } },
          });
          send(res, '[DONE]');
          res.end();
        },
      },
    );
    const result = await pool.submit({ session: 'code', priority: 'interactive', params: ghost });
    expect(result).toMatchObject({ status: 'done', text: 'a + b', usage: { cachedTokens: 16 } });
    expect(bodies('/completions')[0]).toMatchObject({
      prompt: 'def add(a, b):\n    return ',
      suffix: '\n\nprint(add(1, 2))',
      max_tokens: 8,
      priority: -2,
      model: 'test-model',
    });
    await pool.unload();
  });

  it('with fim off, a fimParams job chats with its messages and the fim field is not sent', async () => {
    const { pool, bodies } = await setup({});
    await pool.submit({ params: ghost });
    expect(bodies()[0]).toMatchObject({ messages: ghost.messages, max_tokens: 8 });
    expect(bodies()[0]).not.toHaveProperty('fim');
    await pool.unload();
  });
});

async function peakBatch(reserveLane: boolean) {
  const held = gate();
  const { pool } = await setup(
    { concurrency: 4, reserveLane },
    {
      chat: async (req, res) => {
        if (String(req.body.messages[0].content).startsWith('item')) await held.opened;
        await streamReply(req, res, ['ok']);
      },
    },
  );
  const batch = Array.from({ length: 10 }, (_, i) => pool.submit({ task: 'translate', params: say(`item ${i}`) }));
  const expected = reserveLane ? 3 : 4;
  await until(() => server!.open('/chat/completions') === expected);
  const atOnce = pool.getSnapshot().running;
  // A keystroke still goes out at once beside the batch.
  const keystroke = await pool.submit({ session: 'editor', priority: 'interactive', params: say('Dear') });
  held.open();
  await Promise.all(batch);
  await pool.unload();
  return { atOnce, keystroke: keystroke.status, peak: server!.peak('/chat/completions') };
}

describe('reserveLane', () => {
  it('true (default): a batch takes all lanes but one', async () => {
    expect(await peakBatch(true)).toEqual({ atOnce: 3, keystroke: 'done', peak: 4 });
  });

  it('false: a batch takes all `concurrency` lanes, and the keystroke gets one on top', async () => {
    expect(await peakBatch(false)).toEqual({ atOnce: 4, keystroke: 'done', peak: 5 });
  });
});
