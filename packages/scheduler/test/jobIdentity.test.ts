import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type ChatCompletionChunk, type EngineCallOptions, EnginePool, type JobIdentity } from '../src/index.js';
import { createFakeEngine } from '../src/testing/index.js';
import { chat } from './helpers.js';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

/** A fake engine that records the options of every call it gets. */
function recordingPool() {
  const seen: JobIdentity[] = [];
  const pool = new EnginePool({
    size: 1,
    createEngine: async () => {
      const engine = createFakeEngine({ reply: 'a b', tokenMs: 5 });
      const create = engine.chat.completions.create.bind(engine.chat.completions);
      engine.chat.completions.create = (request, options?: EngineCallOptions) => {
        if (options?.job) seen.push(options.job);
        return create(request, options) as Promise<AsyncIterable<ChatCompletionChunk>>;
      };
      return engine;
    },
  });
  return { pool, seen };
}

describe('the job identity an engine call carries', () => {
  it('names the job, its task, session, priority, preemptibility and owner', async () => {
    const { pool, seen } = recordingPool();
    await pool.load();
    const done = pool.submit(
      chat('hi', {
        id: 'j1',
        session: 'ghost:note',
        task: 'ghost',
        priority: 'interactive',
        owner: 'tab-1',
      }),
    );
    await vi.runAllTimersAsync();
    await done;
    expect(seen).toEqual([
      {
        id: 'j1',
        kind: 'chat',
        task: 'ghost',
        session: 'ghost:note',
        priority: 'interactive',
        preemptible: false,
        owner: 'tab-1',
      },
    ]);
  });

  it('fills the defaults the pool chose for a bare job', async () => {
    const { pool, seen } = recordingPool();
    await pool.load();
    const done = pool.submit(chat('hi', { preemptible: true }));
    await vi.runAllTimersAsync();
    const result = await done;
    expect(seen[0]).toMatchObject({
      id: result.id,
      task: result.id,
      session: undefined,
      priority: 'normal',
      preemptible: true,
    });
  });
});
