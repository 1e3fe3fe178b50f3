import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { EngineLoadError, EnginePool } from '../src/index.js';
import type { CreateEngine, Engine } from '../src/index.js';
import { createFakeEngine, fakeEngines } from '../src/testing/index.js';
import { chat } from './helpers.js';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

const NOT_ENGINES: Array<[string, unknown, RegExp]> = [
  ['null', null, /it resolved null/],
  ['undefined', undefined, /it resolved undefined/],
  ['a string', 'Qwen2-0.5B', /it resolved "Qwen2-0\.5B"/],
  [
    'an object without chat.completions.create',
    { chat: { completions: {} }, interruptGenerate() {} },
    /its "chat\.completions\.create" is not a function/,
  ],
  [
    'an engine without interruptGenerate',
    { chat: { completions: { create: async () => [] } } },
    /its "interruptGenerate" is not a function/,
  ],
  [
    'embeddings without create',
    { chat: { completions: { create: async () => [] } }, interruptGenerate() {}, embeddings: {} },
    /its "embeddings\.create" is not a function/,
  ],
  [
    'a getter that throws',
    {
      get chat(): never {
        throw new Error('worker gone');
      },
    },
    /reading it threw \(worker gone\)/,
  ],
];

describe('a createEngine that does not give an engine', () => {
  it.each(NOT_ENGINES)('resolving %s fails the load with an EngineLoadError that says what to return', async (_name, value, problem) => {
    const pool = new EnginePool({ createEngine: (async () => value) as unknown as CreateEngine });
    const waiting = pool.submit(chat('x'));
    const error = await pool.load().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EngineLoadError);
    expect((error as Error).message).toMatch(problem);
    expect((error as Error).message).toMatch(
      /createEngine must resolve an engine: an object with chat\.completions\.create\(request\) and interruptGenerate\(\)/,
    );
    expect(pool.getSnapshot()).toMatchObject({ phase: 'error', error, loadProgress: null, queued: 0 });
    // The job does not wait for a model that is not coming: it ends with the same error.
    expect(await waiting).toMatchObject({ status: 'error', error });
  });

  it('a concurrency getter that throws ends the load with an error instead of loading for ever', async () => {
    const engine = createFakeEngine({ reply: 'ok' });
    Object.defineProperty(engine, 'concurrency', {
      get: () => {
        throw new Error('lanes unknown');
      },
    });
    const pool = new EnginePool({ createEngine: async () => engine });
    await expect(pool.load()).rejects.toThrow(/could not be set up: lanes unknown/);
    expect(pool.getSnapshot().phase).toBe('error');
    expect(pool.getSnapshot().error).toBeInstanceOf(EngineLoadError);
    expect(engine.unloaded).toBe(true);
  });

  it('a configure that throws while the pool applies its settings ends the load with an error', async () => {
    const engine: Engine = Object.assign(createFakeEngine(), {
      configure: () => {
        throw new Error('unknown setting decodeSteps');
      },
    });
    const pool = new EnginePool({ createEngine: async () => engine });
    pool.configure({ decodeSteps: 4 });
    await expect(pool.load()).rejects.toThrow(/unknown setting decodeSteps/);
    expect(pool.getSnapshot()).toMatchObject({ phase: 'error', size: 0 });
    expect(pool.getSnapshot().error).toBeInstanceOf(EngineLoadError);
  });

  it('can be loaded again once createEngine gives an engine', async () => {
    let attempt = 0;
    const good = createFakeEngine({ reply: 'fine' });
    const pool = new EnginePool({ createEngine: (async () => (++attempt === 1 ? null : good)) as unknown as CreateEngine });
    await expect(pool.load()).rejects.toBeInstanceOf(EngineLoadError);
    await pool.load();
    const waiting = pool.submit(chat('x'));
    await vi.runAllTimersAsync();
    expect(await waiting).toMatchObject({ status: 'done', text: 'fine' });
  });

  it('a growth that gives no engine is recorded as growthBlocked and the pool carries on at its size', async () => {
    const factory = fakeEngines({ reply: 'a b c', tokenMs: 10 });
    const createEngine = ((index, onProgress, options) =>
      index === 0 ? factory(index, onProgress, options) : Promise.resolve({ chat: {} })) as CreateEngine;
    const pool = new EnginePool({ createEngine, size: 2 });
    await pool.load();
    const a = pool.submit(chat('a', { task: 'a' }));
    const b = pool.submit(chat('b', { task: 'b' }));
    await vi.advanceTimersByTimeAsync(1);
    expect(pool.getSnapshot()).toMatchObject({ growing: false, size: 1 });
    expect(pool.getSnapshot().growthBlocked).toMatch(/createEngine\(1\) did not give an engine/);
    await vi.runAllTimersAsync();
    expect([(await a).status, (await b).status]).toEqual(['done', 'done']);
  });

  it('a replacement that gives no engine retires the slot as a failed rebuild does', async () => {
    const factory = fakeEngines({ reply: 'a b c', tokenMs: 10 });
    let builds = 0;
    const createEngine = ((index, onProgress, options) =>
      ++builds === 1 ? factory(index, onProgress, options) : Promise.resolve('not an engine')) as CreateEngine;
    const pool = new EnginePool({ createEngine, size: 1 });
    await pool.load();
    const running = pool.submit(chat('x', { task: 't' }));
    const queued = pool.submit(chat('y', { task: 't' }));
    await vi.advanceTimersByTimeAsync(5);
    factory.engines[0]!.die();
    expect((await vi.waitFor(() => running)).status).toBe('error');
    await vi.advanceTimersByTimeAsync(1);
    const snapshot = pool.getSnapshot();
    expect(snapshot).toMatchObject({ phase: 'error', size: 0, queued: 0 });
    expect(snapshot.error).toBeInstanceOf(EngineLoadError);
    expect(snapshot.error?.message).toMatch(/it resolved "not an engine"/);
    expect(await queued).toMatchObject({ status: 'error', error: snapshot.error });
  });
});
