import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { chat, run, sharedScene, useFakeClock } from './helpers.js';

beforeEach(useFakeClock);
afterEach(() => vi.useRealTimers());

describe('an engine of lanes behind a shared pool', () => {
  it("runs two tabs' tasks at once on one engine's lanes, and each tab sees the lanes with its own job on them", async () => {
    const scene = sharedScene({ reply: 'a b c d e f', tokenMs: 10, concurrency: 5 }, { size: 2 });
    const a = scene.tab('a');
    const b = scene.tab('b');
    await Promise.all([a.client.load(), b.client.load()]);
    const jobs = [
      a.client.submit(chat('x', { id: 'mine', task: 'translate' })),
      b.client.submit(chat('y', { id: 'mine', task: 'summary' })),
    ];
    await run(25);
    // Two tasks, one engine: the pool grew lanes, not engines.
    expect(scene.host.pool.getSnapshot().engines).toHaveLength(1);
    for (const tab of [a, b]) {
      const [engine] = tab.client.getSnapshot().engines;
      expect(engine).toMatchObject({ concurrency: 5, state: 'busy' });
      expect(engine!.jobs).toContain('mine');
    }
    await run(200);
    const results = await Promise.all(jobs);
    expect(results.map((r) => [r.status, r.text])).toEqual([
      ['done', 'a b c d e f'],
      ['done', 'a b c d e f'],
    ]);
    expect(scene.host.createEngine.builds.get(1)).toBeUndefined();
    scene.close();
  });
});
