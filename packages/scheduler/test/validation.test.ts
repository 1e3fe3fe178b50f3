import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { EnginePool, InklingError, InvalidJobError, InvalidOptionError } from '../src/index.js';
import type { JobSpec } from '../src/index.js';
import { fakeEngines } from '../src/testing/index.js';
import { chat, fakePool } from './helpers.js';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('bad input', () => {
  it.each([
    ['size 0', { size: 0 }, /from 1 to 4/],
    ['size 5', { size: 5 }, /from 1 to 4/],
    ['size 1.5', { size: 1.5 }, /from 1 to 4/],
    ['negative idle timeout', { idleTimeoutMs: -1 }, /idleTimeoutMs/],
  ])('new EnginePool with %s throws an InvalidOptionError that says what to do', (_name, options, message) => {
    expect(() => new EnginePool({ createEngine: fakeEngines(), ...options })).toThrow(message);
    expect(() => new EnginePool({ createEngine: fakeEngines(), ...options })).toThrow(InvalidOptionError);
  });

  it('new EnginePool without createEngine names what to pass', () => {
    expect(() => new EnginePool({} as never)).toThrow(/createEngine/);
  });

  const bad: Array<[string, unknown, RegExp]> = [
    ['no spec', undefined, /job spec must be an object/],
    ['no params', {}, /"params" must be the request/],
    ['empty messages', { params: { messages: [] } }, /non-empty array/],
    ['a message without role', { params: { messages: [{ content: 'x' }] } }, /messages\[0\]/],
    [
      'an unknown priority',
      { ...chat('x'), priority: 'urgent' },
      /"priority" must be one of "interactive", "high", "normal", "low"; it got "urgent"/,
    ],
    ['an unknown kind', { ...chat('x'), kind: 'image' }, /"kind" must be "chat", "embedding" or "translation"; it got "image"/],
    ['a bad max_tokens', { params: { messages: [{ role: 'user', content: 'x' }], max_tokens: -2 } }, /max_tokens/],
    ['an embedding without input', { kind: 'embedding', params: {} }, /params\.input/],
    ['a signal that is not one', { ...chat('x'), signal: {} }, /AbortSignal/],
    ['a non-function onChunk', { ...chat('x'), onChunk: 'log' }, /onChunk/],
    ['an empty session', { ...chat('x'), session: '' }, /"session" must be a non-empty string/],
  ];

  it.each(bad)('a job with %s resolves with an InvalidJobError and touches nothing else', async (_name, spec, message) => {
    const { pool, createEngine } = fakePool({ reply: 'a b c', tokenMs: 10 }, { size: 1 });
    await pool.load();
    const running = pool.submit(chat('keep me', { session: 'ghost', task: 't' }));
    const queued = pool.submit(chat('and me', { task: 't' }));
    await vi.advanceTimersByTimeAsync(5);
    const before = pool.getSnapshot();
    // Each bad spec names the live session, so a wrongly applied supersession would show.
    const withSession = spec === undefined ? undefined : { session: 'ghost', ...(spec as object) };
    const result = await pool.submit(withSession as JobSpec);
    expect(result.status).toBe('error');
    expect(result.error).toBeInstanceOf(InvalidJobError);
    expect(result.error).toBeInstanceOf(InklingError);
    expect(result.error?.name).toBe('InvalidJobError');
    expect(result.error?.message).toMatch(message);
    // Not even the session it named was superseded.
    expect(pool.getSnapshot()).toBe(before);
    await vi.runAllTimersAsync();
    expect((await running).status).toBe('done');
    expect((await queued).status).toBe('done');
    expect(createEngine.engines[0]!.calls).toHaveLength(2);
  });

  it('refuses an id that a live job already has', async () => {
    const { pool } = fakePool({ reply: 'a b', tokenMs: 10 });
    await pool.load();
    const first = pool.submit(chat('x', { id: 'dup' }));
    const second = await pool.submit(chat('y', { id: 'dup' }));
    expect(second.error?.message).toMatch(/already queued or running/);
    await vi.runAllTimersAsync();
    expect((await first).status).toBe('done');
    // Once the first is over the id is free again.
    const third = pool.submit(chat('z', { id: 'dup' }));
    await vi.runAllTimersAsync();
    expect((await third).status).toBe('done');
  });

  it('an embedding job on an engine that has no embeddings fails with an error that says what to load', async () => {
    const { pool } = fakePool({ embeddings: false });
    await pool.load();
    const result = await pool.submit({ kind: 'embedding', params: { input: ['a'] } });
    expect(result.error).toBeInstanceOf(InvalidJobError);
    expect(result.error?.message).toMatch(/embedding model/);
  });

  it('configure() with something that is not an object throws', () => {
    const { pool } = fakePool();
    expect(() => pool.configure(null as never)).toThrow(InvalidOptionError);
  });
});

describe('pool options are all checked when the pool is built', () => {
  it.each([
    ['timers without functions', { timers: {} }, /"timers" must be an object with setTimeout/],
    ['timers without clearTimeout', { timers: { setTimeout: () => 0 } }, /"timers" must be an object with setTimeout/],
    ['timers that are null', { timers: null }, /"timers"/],
    [
      'an idle timeout past what a timer can wait',
      { idleTimeoutMs: 2 ** 31 },
      /"idleTimeoutMs" must be a number of milliseconds from 0 to 2147483647/,
    ],
    ['an idle timeout that is not a number', { idleTimeoutMs: '60s' }, /"idleTimeoutMs".*it got "60s"/],
    ['an idle timeout of NaN', { idleTimeoutMs: Number.NaN }, /"idleTimeoutMs"/],
    ['a negative stall timeout', { stallTimeoutMs: -5 }, /"stallTimeoutMs" must be a number of milliseconds/],
    ['a stall timeout past what a timer can wait', { stallTimeoutMs: 3e9 }, /"stallTimeoutMs"/],
  ])('%s is an InvalidOptionError from the constructor', (_name, options, message) => {
    const build = () => new EnginePool({ createEngine: fakeEngines(), ...(options as object) });
    expect(build).toThrow(InvalidOptionError);
    expect(build).toThrow(message);
  });

  it('accepts Infinity for the durations that may mean never', () => {
    expect(() => new EnginePool({ createEngine: fakeEngines(), idleTimeoutMs: Infinity, stallTimeoutMs: Infinity })).not.toThrow();
  });
});
