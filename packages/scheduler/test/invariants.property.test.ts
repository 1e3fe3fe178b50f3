import * as fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { EnginePool } from '../src/index.js';
import type { CreateEngine, JobResult, JobSpec, PoolStatus, Priority } from '../src/index.js';
import { fakeEngines } from '../src/testing/index.js';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

const PRIORITIES: Priority[] = ['interactive', 'high', 'normal', 'low'];
/** The pool's `stallTimeoutMs` in these runs. */
const STALL_MS = 150;
/** How long a stopped engine may still make progress (prefill, every token) before it falls silent. */
const PROGRESS_SLACK_MS = 3 + 8 * 5 + 40;
/** What a `createEngine` may wrongly resolve: not engines, or an engine that throws when set up. */
const BAD_RESULTS: Array<() => unknown> = [
  () => null,
  () => 'an engine',
  () => ({ chat: { completions: {} }, interruptGenerate() {} }),
  () => ({
    chat: { completions: { create: async () => [] } },
    interruptGenerate() {},
    get concurrency(): number {
      throw new Error('no lanes');
    },
  }),
];

type Action =
  | {
      type: 'submit';
      task: number;
      session: number | null;
      priority: Priority;
      preemptible: boolean;
      embedding: boolean;
      maxTokens: number;
      withSignal: boolean;
    }
  | { type: 'cancel'; target: number; bySession: boolean }
  | { type: 'abort'; target: number }
  | { type: 'fail'; engine: number; fatal: boolean; afterTokens: number | null }
  | { type: 'die'; engine: number }
  | { type: 'wedge'; engine: number; afterTokens: number | null }
  | { type: 'cancelAbsent'; key: undefined | null | '' }
  | { type: 'advance'; ms: number }
  | { type: 'unload' }
  | { type: 'load' };

const action: fc.Arbitrary<Action> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      type: fc.constant('submit' as const),
      task: fc.nat(3),
      session: fc.option(fc.nat(2), { nil: null }),
      priority: fc.constantFrom(...PRIORITIES),
      preemptible: fc.boolean(),
      embedding: fc.integer({ min: 0, max: 9 }).map((n) => n < 2),
      maxTokens: fc.integer({ min: 1, max: 8 }),
      withSignal: fc.boolean(),
    }),
  },
  { weight: 2, arbitrary: fc.record({ type: fc.constant('cancel' as const), target: fc.nat(40), bySession: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ type: fc.constant('abort' as const), target: fc.nat(40) }) },
  {
    weight: 1,
    arbitrary: fc.record({
      type: fc.constant('fail' as const),
      engine: fc.nat(8),
      fatal: fc.boolean(),
      afterTokens: fc.option(fc.nat(4), { nil: null }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ type: fc.constant('die' as const), engine: fc.nat(8) }) },
  {
    weight: 1,
    arbitrary: fc.record({ type: fc.constant('wedge' as const), engine: fc.nat(8), afterTokens: fc.option(fc.nat(4), { nil: null }) }),
  },
  { weight: 1, arbitrary: fc.record({ type: fc.constant('cancelAbsent' as const), key: fc.constantFrom(undefined, null, '' as const) }) },
  { weight: 5, arbitrary: fc.record({ type: fc.constant('advance' as const), ms: fc.integer({ min: 0, max: 40 }) }) },
  { weight: 1, arbitrary: fc.constant({ type: 'unload' as const }) },
  { weight: 1, arbitrary: fc.constant({ type: 'load' as const }) },
);

interface Tracked {
  id: string;
  session: string | undefined;
  controller: AbortController;
  withSignal: boolean;
  result: JobResult | undefined;
  settled: number;
  chunksAfterSettle: number;
  /** Virtual time when the job was asked to stop (cancel, abort, supersession, preemption). */
  stoppedAt: number | undefined;
  /** Set when the pool must settle it at once (cancel, abort, supersession): no engine may delay it. */
  settleAtOnce: boolean;
}

/**
 * Everything the pool claims must match what the engines and promises show.
 * Problems are collected and asserted once: thousands of `expect` calls per
 * run would cost more than the pool does.
 */
function checkInvariants(pool: EnginePool, factory: ReturnType<typeof fakeEngines>, jobs: Tracked[]) {
  const s: PoolStatus = pool.getSnapshot();
  const problems: string[] = [];
  const check = (ok: boolean, problem: () => string) => {
    if (!ok) problems.push(problem());
  };
  // Counts match the lists they summarise.
  const running = s.jobs.filter((j) => j.state !== 'queued');
  const runningIds = new Set(running.map((j) => j.id));
  check(s.running === running.length, () => `running ${s.running} but ${running.length} running jobs`);
  check(s.queued === s.jobs.length - running.length, () => `queued ${s.queued}`);
  check(Object.values(s.queuedByPriority).reduce((a, b) => a + b, 0) === s.queued, () => 'queuedByPriority does not add up');
  check(s.size === s.engines.length && s.size <= s.maxSize, () => `size ${s.size}`);
  check(s.busy === s.engines.filter((e) => e.jobs.length > 0).length, () => `busy ${s.busy}`);
  // Every running job holds a lane; every other lane is held by a settled job still draining.
  const byId = new Map(jobs.map((j) => [j.id, j]));
  const onLanes = new Set(s.engines.flatMap((e) => e.jobs));
  for (const id of runningIds) check(onLanes.has(id), () => `${id} runs on no lane`);
  for (const id of onLanes)
    check(runningIds.has(id) || byId.get(id)?.settled === 1, () => `${id} holds a lane but is neither running nor settled`);
  // The live jobs are exactly the unsettled ones; none settles twice or hears a chunk after settling.
  const live = new Set(s.jobs.map((j) => j.id));
  const now = Date.now();
  for (const job of s.jobs) {
    const tracked = byId.get(job.id);
    if (tracked && job.state === 'cancelling') tracked.stoppedAt ??= now;
  }
  for (const job of jobs) {
    check(
      job.settled <= 1 && job.chunksAfterSettle === 0,
      () => `${job.id} settled ${job.settled} times, ${job.chunksAfterSettle} chunks after`,
    );
    check((job.settled === 0) === live.has(job.id), () => `${job.id} live in the snapshot is not the same as unsettled`);
    if (job.settled > 0) continue;
    // A stopped job settles at once when cancelled, within the stall bound when preempted.
    check(!job.settleAtOnce, () => `${job.id} was cancelled but has not settled`);
    const waited = job.stoppedAt === undefined ? 0 : now - job.stoppedAt;
    check(waited <= STALL_MS + PROGRESS_SLACK_MS, () => `${job.id} unsettled ${waited} ms after its stop`);
  }
  // No engine runs more jobs than it has lanes, in the pool's view or the engine's.
  for (const engine of s.engines) check(engine.jobs.length <= engine.concurrency, () => `engine ${engine.index} over its lanes`);
  for (const engine of factory.engines) {
    const active = engine.calls.filter((c) => ['waiting', 'prefill', 'decoding', 'hung'].includes(c.state));
    check(active.length <= engine.concurrency, () => 'a fake engine runs more calls than it has lanes');
  }
  // No task holds two engines unless its jobs are interactive.
  const engineOfTask = new Map<string, number | undefined>();
  for (const job of running) {
    if (job.priority === 'interactive') continue;
    if (engineOfTask.has(job.task)) check(engineOfTask.get(job.task) === job.engineIndex, () => `task ${job.task} on two engines`);
    engineOfTask.set(job.task, job.engineIndex);
  }
  if (problems.length > 0) expect(problems).toEqual([]);
}

/** Marks the jobs a stop aimed at `key` reaches, before it is sent. */
function markStopped(pool: EnginePool, jobs: Tracked[], key: string) {
  const live = new Set(pool.getSnapshot().jobs.map((j) => j.id));
  for (const job of jobs) {
    if (job.settled || !live.has(job.id) || (job.id !== key && job.session !== key)) continue;
    job.stoppedAt ??= Date.now();
    job.settleAtOnce = true;
  }
}

/** After `unload()`: nothing runs, every job has settled, every engine built so far is released. */
function checkUnloaded(pool: EnginePool, factory: ReturnType<typeof fakeEngines>, jobs: Tracked[]) {
  expect(pool.getSnapshot()).toMatchObject({ size: 0, running: 0, queued: 0 });
  expect(jobs.filter((j) => j.settled !== 1).map((j) => j.id)).toEqual([]);
  expect(factory.engines.filter((e) => !e.unloaded)).toEqual([]);
}

async function play(actions: Action[], size: number, failBuilds: number[], badBuilds: Array<[number, number]>) {
  let builds = 0;
  const factory = fakeEngines({
    reply: 'a b c d e f g h i j',
    prefillMs: 3,
    tokenMs: 5,
    failLoad: () => (failBuilds.includes(builds) ? new Error(`build ${builds} failed`) : undefined),
  });
  const createEngine: CreateEngine = (index, onProgress, options) => {
    builds += 1;
    const bad = badBuilds.find(([build]) => build === builds);
    if (bad) return Promise.resolve(BAD_RESULTS[bad[1] % BAD_RESULTS.length]!() as never);
    return factory(index, onProgress, options);
  };
  const pool = new EnginePool({ createEngine, size, idleTimeoutMs: 50, stallTimeoutMs: STALL_MS });
  const jobs: Tracked[] = [];
  const absentCancels: string[] = [];
  void pool.load().catch(() => {});

  for (const step of actions) {
    switch (step.type) {
      case 'submit': {
        const id = `j${jobs.length}`;
        const controller = new AbortController();
        const tracked: Tracked = {
          id,
          session: undefined,
          controller,
          withSignal: step.withSignal,
          result: undefined,
          settled: 0,
          chunksAfterSettle: 0,
          stoppedAt: undefined,
          settleAtOnce: false,
        };
        tracked.session = step.session === null ? undefined : `s${step.session}`;
        // Supersession: the live job of this session is stopped by the submit.
        if (tracked.session) markStopped(pool, jobs, tracked.session);
        const common = {
          id,
          task: `t${step.task}`,
          session: tracked.session,
          priority: step.priority,
          preemptible: step.preemptible,
          signal: step.withSignal ? controller.signal : undefined,
        };
        const spec: JobSpec = step.embedding
          ? { ...common, kind: 'embedding', params: { input: ['x'] } }
          : {
              ...common,
              params: { messages: [{ role: 'user', content: id }], max_tokens: step.maxTokens },
              onChunk: () => {
                if (tracked.settled) tracked.chunksAfterSettle += 1;
              },
            };
        jobs.push(tracked);
        void pool.submit(spec).then((result) => {
          tracked.settled += 1;
          tracked.result = result;
        });
        break;
      }
      case 'cancel': {
        const job = jobs[step.target % Math.max(1, jobs.length)];
        const key = job && (step.bySession && job.session ? job.session : job.id);
        if (key) markStopped(pool, jobs, key);
        if (key) pool.cancel(key);
        break;
      }
      case 'abort': {
        const job = jobs[step.target % Math.max(1, jobs.length)];
        if (job?.withSignal) markStopped(pool, jobs, job.id);
        job?.controller.abort();
        break;
      }
      case 'cancelAbsent': {
        // Nothing is stopped and nothing changes, not even the snapshot's identity.
        const before = pool.getSnapshot();
        const stopped = pool.cancel(step.key);
        if (stopped !== 0 || pool.getSnapshot() !== before) absentCancels.push(`cancel(${String(step.key)}) stopped ${stopped}`);
        break;
      }
      case 'wedge': {
        const engine = factory.engines[step.engine % Math.max(1, factory.engines.length)];
        engine?.hangNext({ afterTokens: step.afterTokens ?? undefined });
        break;
      }
      case 'fail': {
        const engine = factory.engines[step.engine % Math.max(1, factory.engines.length)];
        engine?.failNext(new Error('simulated'), { fatal: step.fatal, afterTokens: step.afterTokens ?? undefined });
        break;
      }
      case 'die':
        factory.engines[step.engine % Math.max(1, factory.engines.length)]?.die();
        break;
      case 'advance':
        await vi.advanceTimersByTimeAsync(step.ms);
        break;
      case 'unload': {
        await pool.unload();
        await vi.advanceTimersByTimeAsync(0);
        checkUnloaded(pool, factory, jobs);
        break;
      }
      case 'load':
        void pool.load().catch(() => {});
        break;
    }
    await vi.advanceTimersByTimeAsync(0);
    checkInvariants(pool, factory, jobs);
  }

  expect(absentCancels).toEqual([]);
  // Let everything run out, reloading after failed loads.
  void pool.load().catch(() => {});
  let stuck = 0;
  for (let i = 0; i < 40 && stuck < 2 && jobs.some((j) => j.settled === 0); i += 1) {
    const before = pool.getSnapshot();
    await vi.advanceTimersByTimeAsync(100);
    if (pool.getSnapshot().phase === 'error') void pool.load().catch(() => {});
    checkInvariants(pool, factory, jobs);
    // Nothing moved for two rounds: what is left waits on a wedge.
    stuck = pool.getSnapshot() === before ? stuck + 1 : 0;
  }
  // What is still live sits on a wedged engine that nobody asked to stop: a caller gives up on it.
  for (const job of jobs) {
    if (job.settled) continue;
    markStopped(pool, jobs, job.id);
    pool.cancel(job.id);
  }
  await vi.advanceTimersByTimeAsync(0);
  checkInvariants(pool, factory, jobs);
  for (const job of jobs) expect(job.settled, `${job.id} never settled`).toBe(1);
  // Within the stall bound every wedged engine has been replaced and every lane is free.
  await vi.advanceTimersByTimeAsync(STALL_MS + PROGRESS_SLACK_MS);
  checkInvariants(pool, factory, jobs);
  expect(pool.getSnapshot().engines.filter((e) => e.jobs.length > 0)).toEqual([]);
  expect(pool.getSnapshot().phase).not.toBe('loading');
  await pool.unload();
  await vi.advanceTimersByTimeAsync(200);
  for (const engine of factory.engines) expect(engine.unloaded).toBe(true);
}

describe('invariants under random use', () => {
  it('hold after every step of thousands of random sequences', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(action, { minLength: 1, maxLength: 40 }),
        fc.integer({ min: 1, max: 4 }),
        fc.array(fc.integer({ min: 1, max: 12 }), { maxLength: 3 }),
        fc.array(fc.tuple(fc.integer({ min: 1, max: 12 }), fc.nat(3)), { maxLength: 2 }),
        async (actions, size, failBuilds, badBuilds) => {
          await play(actions, size, failBuilds, badBuilds);
        },
      ),
      { numRuns: 1500 },
    );
  }, 240_000);
});
