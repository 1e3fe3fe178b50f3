/// <reference types="node" />
import { inspect } from 'node:util';
import { EnginePool, type JobResult } from '@inkling/scheduler';
import { afterEach, describe, expect, it } from 'vitest';
import { BadRequestError, MalformedStreamError, ServerError, StreamInterruptedError, openaiEngines } from '../src/index.js';
import { type Handler, type TestServer, chunk, json, openStream, send, startServer, streamReply, until } from './openaiServer.js';

const KEY = 'sk-soak-KEY-THAT-MUST-NOT-LEAK-424242';
const KINDS = ['ok', 'null-errors', 'json-error', 'loading-once', '503-once', 'reset-once', 'stall', 'bigint', 'huge'] as const;
type Kind = (typeof KINDS)[number];

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** The server does what the prompt (`kind:index`) asks; "-once" kinds misbehave on the first try only. */
function misbehaving(): Handler {
  const tries = new Map<string, number>();
  return (req, res) => {
    const prompt = String(req.body.messages[0].content);
    const kind = prompt.split(':')[0] as Kind;
    const attempt = (tries.get(prompt) ?? 0) + 1;
    tries.set(prompt, attempt);
    const words = [`${prompt} `, 'é😀', ' done'];
    if (kind === 'null-errors') {
      openStream(res);
      for (const word of words) send(res, { ...chunk(word), error: null });
      send(res, { ...chunk(undefined, 'stop'), error: null });
      send(res, '[DONE]');
      return void res.end();
    }
    if (kind === 'json-error') return json(res, 200, { error: { message: `cannot do ${prompt} with ${req.headers.authorization}` } });
    if (kind === 'loading-once' && attempt === 1) return json(res, 200, { error: { message: 'Model is loading' } });
    if (kind === '503-once' && attempt === 1) return json(res, 503, { error: 'overloaded' }, { 'x-request-id': prompt });
    if (kind === 'reset-once' && attempt === 1) return void res.socket?.destroy();
    if (kind === 'stall') {
      openStream(res);
      return send(res, chunk(words[0]));
    }
    if (kind === 'huge') {
      openStream(res);
      send(res, chunk(words[0]));
      return void res.write(`data: ${'z'.repeat(100_000)}`);
    }
    return streamReply(req, res, words, { delayMs: 1 });
  };
}

/** What a job came to, in a form that compares whole. */
interface Outcome {
  status: string;
  text: string;
  error: string | undefined;
}

function outcome(result: JobResult): Outcome {
  return { status: result.status, text: result.text, error: result.error?.name };
}

function failed(error: string, text = ''): Outcome {
  return { status: 'error', text, error };
}

/** What a job of `kind` must come to: the healthy and the healed ones whole, the others with their own error and text so far. */
function expectedOutcome(kind: Kind, prompt: string) {
  const done: Outcome = { status: 'done', text: `${prompt} é😀 done`, error: undefined };
  const outcomes: Record<Kind, Outcome> = {
    ok: done,
    'null-errors': done,
    'loading-once': done,
    '503-once': done,
    'reset-once': done,
    'json-error': failed(ServerError.name),
    stall: failed(StreamInterruptedError.name, `${prompt} `),
    huge: failed(MalformedStreamError.name, `${prompt} `),
    bigint: failed(BadRequestError.name),
  };
  return outcomes[kind];
}

const STALL_MS = 60_000;

/** Real timers, except that stall waits are held until the test fires them: no stall on a slow machine by accident. */
function heldStalls() {
  const held = new Map<object, () => void>();
  return {
    setTimeout: (callback: () => void, ms: number): unknown => {
      if (ms !== STALL_MS) return globalThis.setTimeout(callback, ms);
      const handle = {};
      held.set(handle, callback);
      return handle;
    },
    clearTimeout: (handle: unknown): void => {
      if (!held.delete(handle as object)) globalThis.clearTimeout(handle as ReturnType<typeof setTimeout>);
    },
    pending: () => held.size,
    fire: () => {
      const due = [...held.values()];
      held.clear();
      for (const callback of due) callback();
    },
  };
}

describe('soak: every kind of trouble at once on one engine', () => {
  it('each job gets its own typed outcome, healthy streams finish whole, the engine is built once, and the key is nowhere', async () => {
    server = await startServer({ chat: misbehaving() });
    const timers = heldStalls();
    const built: number[] = [];
    const createEngine = openaiEngines({
      baseURL: server.baseURL,
      model: 'test-model',
      apiKey: KEY,
      // Room for the 15 stalled streams and the rest besides.
      concurrency: 24,
      maxRetryDelayMs: 5,
      timers,
      stallTimeoutMs: STALL_MS,
      maxEventBytes: 64 * 1024,
    });
    const pool = new EnginePool({ createEngine: (i, p) => (built.push(i), createEngine(i, p)), size: 1 });
    await pool.load();
    const jobs = Array.from({ length: 135 }, (_, i) => {
      const kind = KINDS[i % KINDS.length]!;
      const prompt = `${kind}:${i}`;
      const params = { messages: [{ role: 'user' as const, content: prompt }], ...(kind === 'bigint' ? { seed: BigInt(i) } : {}) };
      return pool.submit({ task: `t${i % 3}`, params: params as never }).then((result) => ({ kind, prompt, result }));
    });
    const stalls = jobs.length / KINDS.length;
    let settled = 0;
    for (const job of jobs) void job.then(() => (settled += 1));
    // Everything else settles while the stalled streams wait; then their stall timers fire.
    await until(() => settled === jobs.length - stalls && timers.pending() === stalls, 10_000);
    timers.fire();
    const results = await Promise.all(jobs);
    expect(results.map(({ prompt, result }) => ({ prompt, ...outcome(result) }))).toEqual(
      results.map(({ kind, prompt }) => ({ prompt, ...expectedOutcome(kind, prompt) })),
    );
    expect(built).toEqual([0]);
    expect(pool.getSnapshot()).toMatchObject({ phase: 'ready', running: 0, queued: 0 });
    expect(inspect([results, pool.getSnapshot()], { depth: 30, showHidden: true })).not.toContain(KEY);
    await until(() => server!.open('/chat/completions') === 0);
    await pool.unload();
    // 135 jobs over real sockets: ~1.5 s idle, past the 5 s default on a loaded machine (seen at 4.7 s alone).
  }, 30_000);
});
