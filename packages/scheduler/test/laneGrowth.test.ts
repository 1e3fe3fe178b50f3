import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { EnginePool, InvalidOptionError } from '../src/index.js';
import type { ChatCompletionRequest, EnginePoolOptions, JobResult } from '../src/index.js';
import { fakeEngines } from '../src/testing/index.js';
import { chat } from './helpers.js';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

const LONG = Array.from({ length: 30 }, (_, i) => `t${i}`).join(' ');

/** What WebLLM's lanes send to its own one-sequence path (`Engine.offLane`). */
const offLane = (request: ChatCompletionRequest) => (request.response_format?.type === 'json_schema' ? 'a JSON schema' : undefined);

/** A WebGPU pool's shape: engines of four lanes, one kept for interactive work (`webllmEngines({ lanes: 3 })`), `size` left at 2. */
function lanePool(options: Partial<EnginePoolOptions> = {}, withOffLane = false) {
  const create = fakeEngines({ reply: LONG, tokenMs: 10, concurrency: 4 });
  const pool = new EnginePool({
    createEngine: async (index, onProgress, load) => {
      const engine = await create(index, onProgress, load);
      return withOffLane ? Object.assign(engine, { offLane }) : engine;
    },
    ...options,
  });
  return { pool, create };
}

const JSON_JOB = {
  params: {
    messages: [{ role: 'user' as const, content: 'items' }],
    response_format: {
      type: 'json_schema' as const,
      json_schema: { schema: { type: 'array' as const, items: { type: 'string' as const } } },
    },
  },
};

describe('an engine of N lanes is one engine whose lanes are slots', () => {
  it('four background tasks share one engine of four lanes: the pool grows lanes, not engines', async () => {
    const { pool, create } = lanePool();
    await pool.load();
    const jobs = ['translate', 'actions', 'summary', 'chat'].map((task) => pool.submit(chat(task, { task })));
    await vi.advanceTimersByTimeAsync(1);
    const status = pool.getSnapshot();
    // Three lanes run; the fourth task waits for a lane given back rather than a second copy of the weights.
    expect(status.running).toBe(3);
    expect(status.queued).toBe(1);
    expect(status.growing).toBe(false);
    await vi.runAllTimersAsync();
    expect((await Promise.all(jobs)).map((r) => r.status)).toEqual(['done', 'done', 'done', 'done']);
    expect(create.engines).toHaveLength(1);
    expect(create.builds.get(1)).toBeUndefined();
  });

  it('growWhenLanesFull: true grows another engine when a task finds the lanes taken, as one-lane engines do', async () => {
    const { pool, create } = lanePool({ growWhenLanesFull: true });
    await pool.load();
    const jobs = ['translate', 'actions', 'summary', 'chat'].map((task) => pool.submit(chat(task, { task })));
    await vi.advanceTimersByTimeAsync(1);
    expect(pool.getSnapshot().size).toBe(2);
    expect(pool.getSnapshot().running).toBe(4);
    await vi.runAllTimersAsync();
    await Promise.all(jobs);
    expect(create.engines).toHaveLength(2);
  });

  it('a second job the lanes cannot run grows the pool; jobs that a lane runs do not', async () => {
    const { pool, create } = lanePool({}, true);
    await pool.load();
    const first = pool.submit({ ...JSON_JOB, task: 'extract-a' });
    const lane = pool.submit(chat('lane', { task: 'translate' }));
    await vi.advanceTimersByTimeAsync(1);
    // A lane job runs beside the JSON job on the same engine.
    expect(pool.getSnapshot()).toMatchObject({ size: 1, running: 2 });
    const second = pool.submit({ ...JSON_JOB, task: 'extract-b' });
    await vi.advanceTimersByTimeAsync(1);
    expect(pool.getSnapshot().size).toBe(2);
    await vi.runAllTimersAsync();
    const results = await Promise.all([first, lane, second]);
    expect(results.map((r) => r.status)).toEqual(['done', 'done', 'done']);
    expect(results[2]!.engineIndex).toBe(1);
    expect(create.engines).toHaveLength(2);
  });

  it('with one engine allowed, jobs the lanes cannot run take turns on it while lane jobs go on', async () => {
    const { pool } = lanePool({ size: 1 }, true);
    await pool.load();
    const first = pool.submit({ ...JSON_JOB, task: 'extract-a' });
    const second = pool.submit({ ...JSON_JOB, task: 'extract-b' });
    const lane = pool.submit(chat('lane', { task: 'translate' }));
    await vi.advanceTimersByTimeAsync(1);
    expect(
      pool
        .getSnapshot()
        .jobs.filter((j) => j.state === 'running')
        .map((j) => j.task),
    ).toEqual(['extract-a', 'translate']);
    await vi.runAllTimersAsync();
    const [a, b, c] = (await Promise.all([first, second, lane])) as [JobResult, JobResult, JobResult];
    expect([a.status, b.status, c.status]).toEqual(['done', 'done', 'done']);
    expect(b.startedAt).toBeGreaterThanOrEqual(a.finishedAt);
  });

  it('an offLane that throws counts as a lane job', async () => {
    const create = fakeEngines({ reply: 'ok', concurrency: 4 });
    const pool = new EnginePool({
      createEngine: async (index, onProgress, load) =>
        Object.assign(await create(index, onProgress, load), {
          offLane: () => {
            throw new Error('broken');
          },
        }),
    });
    await pool.load();
    const results = await Promise.all([pool.submit({ ...JSON_JOB, task: 'a' }), pool.submit({ ...JSON_JOB, task: 'b' })]);
    expect(results.map((r) => [r.status, r.engineIndex])).toEqual([
      ['done', 0],
      ['done', 0],
    ]);
  });

  it('growWhenLanesFull that is not a boolean is a typed error naming the option', () => {
    const createEngine = fakeEngines();
    expect(() => new EnginePool({ createEngine, growWhenLanesFull: 'yes' as never })).toThrow(InvalidOptionError);
    expect(() => new EnginePool({ createEngine, growWhenLanesFull: 'yes' as never })).toThrow(/"growWhenLanesFull" must be true or false/);
  });
});

describe('ghost text keeps its reserved lane', () => {
  it('an interactive job starts at once while four tasks of background work wait on the default pool, with nothing preempted', async () => {
    const { pool } = lanePool();
    await pool.load();
    const background = ['translate', 'actions', 'summary', 'chat'].map((task) => pool.submit(chat(task, { task, priority: 'low' })));
    await vi.advanceTimersByTimeAsync(50);
    const typedAt = Date.now();
    const firsts: number[] = [];
    const ghost = pool.submit(chat('ghost', { priority: 'interactive', onChunk: () => void firsts.push(Date.now()) }));
    await vi.advanceTimersByTimeAsync(1);
    expect(pool.getSnapshot().running).toBe(4);
    await vi.runAllTimersAsync();
    const result = await ghost;
    expect(result.status).toBe('done');
    expect(result.startedAt).toBe(result.submittedAt);
    expect(firsts[0]! - typedAt).toBe(0);
    expect((await Promise.all(background)).map((r) => r.status)).toEqual(['done', 'done', 'done', 'done']);
    expect(pool.getSnapshot().size).toBe(1);
  });

  it('a one-lane engine keeps no lane back: a batch takes it, as before', async () => {
    const create = fakeEngines({ reply: LONG, tokenMs: 10 });
    const pool = new EnginePool({ createEngine: create, size: 1 });
    await pool.load();
    const batch = pool.submit(chat('batch', { task: 'page' }));
    await vi.advanceTimersByTimeAsync(1);
    expect(pool.getSnapshot().running).toBe(1);
    await vi.runAllTimersAsync();
    expect((await batch).status).toBe('done');
  });
});
