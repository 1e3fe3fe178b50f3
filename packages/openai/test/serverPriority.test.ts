/// <reference types="node" />
import { readFileSync } from 'node:fs';
import { EnginePool, InvalidOptionError, type JobResult, type JobSpec, PRIORITY_ORDER } from '@inkling/scheduler';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PRIORITY_PRESETS, type ServerPriority, openaiEngines } from '../src/index.js';
import { type SchedulingServerOptions, schedulingServer } from '../src/testing/index.js';

beforeEach(() => vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance', 'Date'] }));
afterEach(() => vi.useRealTimers());

const make = (priority: unknown) => () => openaiEngines({ baseURL: 'http://x.test/v1', model: 'm', priority: priority as ServerPriority });

describe('the priority presets, against what each server documents', () => {
  it("vllm: body `priority`, integers, lower runs first, `normal` is vLLM's default 0", () => {
    const { field, map } = PRIORITY_PRESETS.vllm;
    expect(field).toBe('priority');
    const values = PRIORITY_ORDER.map((band) => map[band]);
    expect(values.every(Number.isInteger)).toBe(true);
    // Most urgent band first: strictly increasing values.
    expect(values).toEqual(values.toSorted((a, b) => a - b));
    expect(new Set(values).size).toBe(4);
    expect(map.normal).toBe(0);
  });

  it('sglang: body `priority`, higher runs first, each band more than the preemption threshold (10, compared strictly) above the next', () => {
    const { field, map } = PRIORITY_PRESETS.sglang;
    expect(field).toBe('priority');
    const values = PRIORITY_ORDER.map((band) => map[band]);
    expect(values.every(Number.isInteger)).toBe(true);
    for (let i = 1; i < values.length; i += 1) expect(values[i - 1]! - values[i]!).toBeGreaterThan(10);
  });

  it('dynamo: `nvext.agent_hints.priority`, higher runs first, spaced for an SGLang backend', () => {
    const { field, map } = PRIORITY_PRESETS.dynamo;
    expect(field).toBe('nvext.agent_hints.priority');
    const values = PRIORITY_ORDER.map((band) => map[band]);
    for (let i = 1; i < values.length; i += 1) expect(values[i - 1]! - values[i]!).toBeGreaterThan(10);
  });

  it('each preset names the releases it is for; the docs say what to send to a Dynamo before 1.1.0 behind vLLM', () => {
    const source = readFileSync(new URL('../src/serverPriority.ts', import.meta.url), 'utf8');
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    const recipe = readFileSync(new URL('../../../docs/recipes/outgrowing-one-server.md', import.meta.url), 'utf8');
    expect(source).toMatch(/`vllm` \(vLLM 0\.6\.3 and later/);
    expect(source).toMatch(/`sglang` \(SGLang releases with `--enable-priority-scheduling`/);
    expect(source).toMatch(/`dynamo` \(Dynamo 1\.1\.0 and later\)/);
    const advice = "{ field: 'nvext.agent_hints.priority', map: PRIORITY_PRESETS.vllm.map }";
    for (const text of [source, readme, recipe]) {
      expect(text).toMatch(/before 1\.1\.0/);
      expect(text).toContain(advice);
    }
    // What that advice sends: Dynamo's field, in vLLM's order (lower first).
    const old = { field: 'nvext.agent_hints.priority', map: PRIORITY_PRESETS.vllm.map } as const;
    expect(make(old)).not.toThrow();
    expect(old.map.interactive).toBeLessThan(old.map.low);
  });

  it('a wrong mapping fails at once with an InvalidOptionError that says what is wrong', () => {
    expect(make('vLLM')).toThrow(InvalidOptionError);
    expect(make('vLLM')).toThrow(/'vllm', 'sglang', 'dynamo'/);
    expect(make({ field: 'priority', header: 'x-p', map: PRIORITY_PRESETS.vllm.map })).toThrow(/exactly one of "field"/);
    expect(make({ field: 'priority', map: { interactive: 0, high: 1, normal: 2 } })).toThrow(/"low" is undefined/);
    expect(make({ header: 'bad header', map: PRIORITY_PRESETS.vllm.map })).toThrow(/header name/);
  });
});

const ITEMS = 200;
const GHOSTS = 5;

interface Run {
  idle: number[];
  /** First-token latencies of the keystrokes sent while the batch was running. */
  loaded: number[];
  batch: JobResult[];
  server: ReturnType<typeof schedulingServer>;
}

/**
 * A 200-item translation and ghost text at once, on a server that runs 4
 * requests and queues the rest, from a pool with 16 lanes (as many tabs of a
 * busy app would send). Ghost text's first-token latency is measured alone
 * first, then while the batch runs.
 */
async function translateWhileTyping(server: SchedulingServerOptions, priority: ServerPriority | undefined): Promise<Run> {
  const sim = schedulingServer({ maxRunning: 4, prefillMs: 40, tokenMs: 10, ...server });
  const pool = new EnginePool({
    createEngine: openaiEngines({
      baseURL: 'http://sim.test/v1',
      model: 'sim',
      fetch: sim.fetch,
      concurrency: 16,
      connectTimeoutMs: Number.POSITIVE_INFINITY,
      stallTimeoutMs: Number.POSITIVE_INFINITY,
      ...(priority === undefined ? {} : { priority }),
    }),
    size: 1,
  });
  await pool.load();
  const ghost = async (): Promise<JobResult> => {
    const result = await pool.submit({
      session: 'editor',
      priority: 'interactive',
      params: { messages: [{ role: 'user', content: 'Dear Sam' }], max_tokens: 4 },
    });
    expect(result.status).toBe('done');
    return result;
  };
  // One keystroke's request at a time, each after the last one's answer and a pause.
  const typing = async () => {
    const out: JobResult[] = [];
    for (let i = 0; i < GHOSTS; i += 1) {
      out.push(await settle(ghost()));
      await vi.advanceTimersByTimeAsync(150);
    }
    return out;
  };
  const idle = (await typing()).map(firstToken);

  // As useBatchTranslate does: one task, normal band, preemptible, preempted items sent again.
  const item = (i: number): Promise<JobResult> =>
    pool
      .submit({
        task: 'translate-page',
        preemptible: true,
        params: { messages: [{ role: 'user', content: `item ${i}` }], max_tokens: 16 },
      } as JobSpec)
      .then((r) => (r.status === 'preempted' ? item(i) : r));
  const batch = Promise.all(Array.from({ length: ITEMS }, (_, i) => item(i)));
  await vi.advanceTimersByTimeAsync(500);
  const keystrokes = await typing();
  const results = await settle(batch);
  const batchEnd = Math.max(...results.map((r) => r.finishedAt));
  await pool.unload();
  return { idle, loaded: keystrokes.filter((k) => k.submittedAt < batchEnd).map(firstToken), batch: results, server: sim };
}

const firstToken = (r: JobResult) => r.firstTokenAt! - r.submittedAt;

/** Advances the fake clock in small steps until `promise` settles. */
async function settle<T>(promise: Promise<T>): Promise<T> {
  const state = { done: false };
  void promise.then(
    () => (state.done = true),
    () => (state.done = true),
  );
  while (!state.done) await vi.advanceTimersByTimeAsync(5);
  return promise;
}

const median = (values: number[]) => values.toSorted((a, b) => a - b)[Math.floor(values.length / 2)]!;

describe('a 200-item translation and ghost text at once, on a server that schedules by priority', () => {
  it.each([
    ['vllm', { server: 'vllm' }, 'vllm'],
    ['sglang', { server: 'sglang' }, 'sglang'],
  ] as const)(
    "%s with its preset: ghost text's first token stays within 1.2x of idle, and the batch all finishes",
    async (_name, server, preset) => {
      const run = await translateWhileTyping(server, preset);
      expect(run.batch.map((r) => r.status)).toEqual(Array.from({ length: ITEMS }, () => 'done'));
      // Every keystroke was typed while the batch ran.
      expect(run.loaded).toHaveLength(GHOSTS);
      expect(median(run.loaded)).toBeLessThanOrEqual(1.2 * median(run.idle));
      expect(run.server.stats.peakQueued).toBeGreaterThan(4);
      expect(run.server.stats.preemptions).toBeGreaterThan(0);
    },
  );

  it.each([
    ['sglang sent the vllm preset (lower-first)', { server: 'sglang' }, 'vllm'],
    ['vllm sent the sglang preset (higher-first)', { server: 'vllm' }, 'sglang'],
    [
      'sglang with interactive only 10 above normal (not past its threshold)',
      { server: 'sglang' },
      { field: 'priority', map: { interactive: 20, high: 15, normal: 10, low: 0 } },
    ],
  ] as const)('%s: ghost text waits behind the batch (more than 1.2x idle)', async (_name, server, preset) => {
    const run = await translateWhileTyping(server, preset as ServerPriority);
    expect(run.batch.every((r) => r.status === 'done')).toBe(true);
    expect(run.loaded.length).toBeGreaterThan(0);
    expect(median(run.loaded)).toBeGreaterThan(1.2 * median(run.idle));
  });

  it('with the preset off the request bodies carry no priority field, and ghost text waits its turn', async () => {
    const run = await translateWhileTyping({ server: 'vllm', schedulingPolicy: 'fcfs' }, undefined);
    expect(run.server.requests.length).toBe(ITEMS + 2 * GHOSTS);
    expect(run.server.requests.filter((r) => 'priority' in r.body || 'nvext' in r.body)).toEqual([]);
    expect(run.server.requests.every((r) => r.status === 200)).toBe(true);
    expect(median(run.loaded)).toBeGreaterThan(1.2 * median(run.idle));
  });

  it('dynamo: the band goes in nvext.agent_hints, beside what the params already put there', async () => {
    const sim = schedulingServer({ server: 'sglang' });
    const pool = new EnginePool({
      createEngine: openaiEngines({ baseURL: 'http://sim.test/v1', model: 'sim', fetch: sim.fetch, priority: 'dynamo' }),
      size: 1,
    });
    await pool.load();
    const job = pool.submit({
      priority: 'high',
      params: { messages: [{ role: 'user', content: 'x' }], max_tokens: 2, nvext: { agent_hints: { osl: 2 } } },
    });
    await vi.advanceTimersByTimeAsync(1_000);
    expect(await job).toMatchObject({ status: 'done' });
    expect(sim.requests[0]!.body.nvext).toEqual({ agent_hints: { osl: 2, priority: 22 } });
    await pool.unload();
  });

  it('a header mapping sends the band as a header and leaves the body alone', async () => {
    const sim = schedulingServer({ server: 'vllm', schedulingPolicy: 'fcfs' });
    const map = { interactive: 3, high: 2, normal: 1, low: 0 };
    const pool = new EnginePool({
      createEngine: openaiEngines({
        baseURL: 'http://sim.test/v1',
        model: 'sim',
        fetch: sim.fetch,
        priority: { header: 'x-dynamo-request-priority', map },
      }),
      size: 1,
    });
    await pool.load();
    const job = pool.submit({ priority: 'interactive', params: { messages: [{ role: 'user', content: 'x' }], max_tokens: 2 } });
    await vi.advanceTimersByTimeAsync(1_000);
    expect(await job).toMatchObject({ status: 'done' });
    expect(sim.requests[0]!.headers['x-dynamo-request-priority']).toBe('3');
    expect('priority' in sim.requests[0]!.body).toBe(false);
    await pool.unload();
  });
});
