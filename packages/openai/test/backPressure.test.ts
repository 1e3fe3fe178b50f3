import { EnginePool, type JobResult, type JobSpec } from '@inkling/scheduler';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type OpenAIEngine, RateLimitError, openaiEngines } from '../src/index.js';
import { schedulingServer } from '../src/testing/index.js';

beforeEach(() => vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance', 'Date'] }));
afterEach(() => vi.useRealTimers());

/** A seeded generator, so the jitter is the same on every run. */
function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

async function settle<T>(promise: Promise<T>): Promise<T> {
  const state = { done: false };
  void promise.then(
    () => (state.done = true),
    () => (state.done = true),
  );
  while (!state.done) await vi.advanceTimersByTimeAsync(5);
  return promise;
}

const ITEMS = 200;
const MAX_RETRIES = 4;

describe('503 shedding under load', () => {
  it('retries background items (bounded, jittered, counted) until all are done, and hands interactive ones their 503 at once', async () => {
    // SGLang with --max-running-requests 4 --max-queued-requests 4 and no priority scheduling: a full queue sheds the newcomer.
    const sim = schedulingServer({
      server: 'sglang',
      priorityScheduling: false,
      maxRunning: 4,
      maxQueued: 4,
      retryAfterS: 1,
      prefillMs: 40,
      tokenMs: 10,
    });
    let engine: OpenAIEngine | undefined;
    const createEngine = openaiEngines({
      baseURL: 'http://sim.test/v1',
      model: 'sim',
      fetch: sim.fetch,
      concurrency: 8,
      maxRetries: MAX_RETRIES,
      random: seeded(7),
      connectTimeoutMs: Number.POSITIVE_INFINITY,
      stallTimeoutMs: Number.POSITIVE_INFINITY,
    });
    const pool = new EnginePool({ createEngine: async (...args) => (engine = (await createEngine(...args)) as OpenAIEngine), size: 1 });
    await pool.load();

    // Other clients fill the server for a while: 8 long requests, 4 running and 4 queued.
    const others = Array.from({ length: 8 }, () =>
      sim
        .fetch('http://sim.test/v1/chat/completions', { method: 'POST', body: JSON.stringify({ messages: [], max_tokens: 150 }) })
        .then((r) => r.text()),
    );
    const item = (i: number): Promise<JobResult> =>
      pool
        .submit({
          task: 'translate-page',
          preemptible: true,
          params: { messages: [{ role: 'user', content: `item ${i}` }], max_tokens: 8 },
        } as JobSpec)
        .then((r) => (r.status === 'preempted' ? item(i) : r));
    const batch = Promise.all(Array.from({ length: ITEMS }, (_, i) => item(i)));
    await vi.advanceTimersByTimeAsync(100);

    // A keystroke while the queue is full.
    const keystroke = pool.submit({
      session: 'editor',
      priority: 'interactive',
      params: { messages: [{ role: 'user', content: 'Dear' }], max_tokens: 4 },
    });
    const ghost = await settle(keystroke);
    expect(ghost.status).toBe('error');
    expect(ghost.error).toBeInstanceOf(RateLimitError);
    expect(ghost.error).toMatchObject({ status: 503, retryAfterMs: 1000 });
    expect(ghost.error?.message).toMatch(/not retried/);
    // At once: no retry wait, and one request on the wire for it.
    expect(ghost.finishedAt - ghost.submittedAt).toBeLessThan(5);
    expect(sim.requests.filter((r) => r.body.max_tokens === 4)).toHaveLength(1);

    const results = await settle(batch);
    await settle(Promise.all(others));
    // Nothing lost: every item done, whole.
    expect(results.map((r) => r.status)).toEqual(Array.from({ length: ITEMS }, () => 'done'));
    expect(results.every((r) => r.text === ' t0 t1 t2 t3 t4 t5 t6 t7')).toBe(true);

    const stats = engine!.requestStats;
    const ours = sim.requests.filter((r) => r.body.model === 'sim');
    expect(stats.attempts).toBe(ours.length);
    expect(stats.busy).toBe(ours.filter((r) => r.status === 503).length);
    expect(stats.busy).toBeGreaterThan(0);
    expect(stats.surfaced).toBe(1);
    // Bounded: each background 503 was retried once, never more than maxRetries per item.
    expect(stats.retries).toBe(stats.busy - stats.surfaced);
    expect(stats.attempts).toBeLessThanOrEqual(ITEMS * (1 + MAX_RETRIES) + 1);
    // No storm: the items refused in the same instant came back spread over Retry-After's 1 s to 1.5 s (jitter), not together.
    const shedAt = ours.find((r) => r.status === 503)!.at;
    const shedTogether = ours.filter((r) => r.status === 503 && r.at === shedAt && r.body.max_tokens === 8).map((r) => r.body.messages);
    const comeback = shedTogether.map(
      (messages) => ours.find((r) => r.at > shedAt && JSON.stringify(r.body.messages) === JSON.stringify(messages))!.at - shedAt,
    );
    expect(shedTogether.length).toBeGreaterThan(1);
    expect(new Set(comeback).size).toBe(comeback.length);
    expect(Math.min(...comeback)).toBeGreaterThanOrEqual(1000);
    expect(Math.max(...comeback)).toBeLessThanOrEqual(1500);
    await pool.unload();
  });
});
