import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { EnginePool, JobSpec } from '../src/index.js';
import { createJob } from '../src/job.js';
import { AFFINITY_SESSIONS, PoolState, type Slot } from '../src/poolState.js';
import { chat, fakePool } from './helpers.js';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

const ghost = (session: string, text: string): JobSpec => chat(text, { session, priority: 'interactive' });

/** The engine each job of `sessions` ran on, one job at a time, in turn. */
async function alternate(pool: EnginePool, sessions: string[], rounds: number): Promise<Record<string, number[]>> {
  const engines: Record<string, number[]> = Object.fromEntries(sessions.map((s) => [s, []]));
  for (let round = 0; round < rounds; round += 1) {
    for (const session of sessions) {
      const done = pool.submit(ghost(session, `${session} keystroke ${round}`));
      await vi.advanceTimersByTimeAsync(500); // well short of the idle shrink
      expect((await done).status).toBe('done');
      engines[session]?.push(pool.getSnapshot().recent.at(-1)?.engineIndex ?? -1);
    }
  }
  return engines;
}

/** Two ghost sessions that once ran at the same time, so the pool grew to two engines. */
async function twoEnginePool() {
  const made = fakePool({ reply: 'a few words', tokenMs: 5 }, { size: 2 });
  await made.pool.load();
  const a = made.pool.submit(ghost('a', 'first'));
  const b = made.pool.submit(ghost('b', 'first'));
  await vi.advanceTimersByTimeAsync(500); // well short of the idle shrink
  expect([(await a).status, (await b).status]).toEqual(['done', 'done']);
  expect(made.pool.getSnapshot().size).toBe(2);
  const first = Object.fromEntries(made.pool.getSnapshot().recent.map((r) => [r.session, r.engineIndex]));
  expect(first).toEqual({ a: 0, b: 1 });
  return made;
}

describe('session affinity', () => {
  it('at pool size 2, alternating ghost sessions keep landing on the engine that served them last', async () => {
    const { pool } = await twoEnginePool();
    const engines = await alternate(pool, ['a', 'b'], 5);
    expect(engines).toEqual({ a: [0, 0, 0, 0, 0], b: [1, 1, 1, 1, 1] });
  });

  it('takes another free engine when its own is busy rather than wait, and sticks to that one next', async () => {
    const { pool } = await twoEnginePool();
    const batch = pool.submit(chat('long work', { task: 'page' }));
    await vi.advanceTimersByTimeAsync(1);
    expect(pool.getSnapshot().engines.map((e) => e.state)).toEqual(['busy', 'idle']);
    // a's engine (0) is busy: it does not wait for it.
    const a = pool.submit(ghost('a', 'now'));
    await vi.advanceTimersByTimeAsync(1);
    expect(pool.getSnapshot().jobs.find((j) => j.session === 'a')).toMatchObject({ state: 'running', engineIndex: 1 });
    await vi.advanceTimersByTimeAsync(500); // well short of the idle shrink
    await Promise.all([a, batch]);
    expect((await alternate(pool, ['a'], 1)).a).toEqual([1]);
  });

  it('forgets everything on unload', async () => {
    const { pool } = await twoEnginePool();
    await pool.unload();
    await pool.load();
    const a = pool.submit(ghost('b', 'again'));
    await vi.advanceTimersByTimeAsync(500); // well short of the idle shrink
    expect((await a).status).toBe('done');
    expect(pool.getSnapshot().recent.at(-1)?.engineIndex).toBe(0);
  });
});

const slot = (index: number): Slot => ({
  index,
  engine: undefined,
  ready: true,
  concurrency: 1,
  jobs: new Set(),
  draining: new Set(),
  idleTimer: undefined,
  deaths: 0,
  heldTasks: new Set(),
  heldUntil: 0,
});

function started(state: PoolState, session: string, on: Slot, n: number) {
  const job = createJob(ghost(session, 'x'), `job-${n}`, 0);
  state.apply({ type: 'queue', job });
  state.apply({ type: 'start', job, slot: on, at: 0 });
  state.apply({ type: 'finish', job, result: { id: job.id, status: 'done', text: '', submittedAt: 0, finishedAt: 0 } });
}

describe('PoolState affinity memory', () => {
  it('is bounded: the least recently started sessions are forgotten first', () => {
    const state = new PoolState(2, 0);
    const one = slot(1);
    for (let i = 0; i < AFFINITY_SESSIONS * 4; i += 1) started(state, `session ${i}`, one, i);
    expect(state.rememberedSessions).toBe(AFFINITY_SESSIONS);
    expect(state.engineOf('session 0')).toBeUndefined();
    expect(state.engineOf(`session ${AFFINITY_SESSIONS * 4 - 1}`)).toBe(1);
  });

  it('forgets the sessions of an engine that is removed or dies, and tells queued jobs', () => {
    const state = new PoolState(2, 0);
    const [zero, one] = [slot(0), slot(1)];
    started(state, 'a', zero, 1);
    started(state, 'b', one, 2);
    const queued = createJob(ghost('b', 'y'), 'job-3', 0);
    state.apply({ type: 'queue', job: queued });
    expect(queued.preferredEngine).toBe(1);
    state.apply({ type: 'slot-remove', slot: one });
    expect([state.engineOf('a'), state.engineOf('b'), queued.preferredEngine]).toEqual([0, undefined, undefined]);
    state.apply({ type: 'slot-down', slot: zero });
    expect(state.engineOf('a')).toBeUndefined();
  });
});
