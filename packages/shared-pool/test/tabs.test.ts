import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { chat, run, sharedScene, useFakeClock } from './helpers.js';

beforeEach(useFakeClock);
afterEach(() => vi.useRealTimers());

describe('tabs on one shared host', () => {
  it('build one engine for three tabs; with the full view each tab sees every job with its owner, its own under its own ids', async () => {
    const scene = sharedScene({ reply: 'a b c d', tokenMs: 10 }, { size: 2 }, { view: 'all' });
    const [a, b, c] = ['a', 'b', 'c'].map((name) => scene.tab(name));
    await Promise.all([a!.client.load(), b!.client.load(), c!.client.load()]);
    expect(scene.host.createEngine.builds.get(0)).toBe(1);
    a!.client.submit(chat('x', { id: 'mine', session: 'ghost', task: 'typing' }));
    b!.client.submit(chat('y', { id: 'mine', session: 'ghost', task: 'typing' }));
    await run(20);
    const seenByA = a!.client.getSnapshot().jobs.map((j) => [j.owner, j.id, j.session, j.task]);
    expect(seenByA).toEqual(
      expect.arrayContaining([
        ['tab-1', 'mine', 'ghost', 'typing'],
        ['tab-2', 'tab-2|mine', 'tab-2|ghost', 'tab-2|typing'],
      ]),
    );
    expect(b!.client.getSnapshot().jobs.find((j) => j.owner === 'tab-2')?.id).toBe('mine');
    expect(a!.client.clientId).toBe('tab-1');
    scene.close();
  });

  it('never supersedes or cancels across tabs: same session, same id, and cancel counts only its own', async () => {
    const scene = sharedScene({ reply: 'a b c d e', tokenMs: 10 }, { size: 1 });
    const a = scene.tab('a');
    const b = scene.tab('b');
    await a.client.load();
    const aFirst = a.client.submit(chat('1', { session: 'ghost' }));
    const bJob = b.client.submit(chat('2', { session: 'ghost' }));
    await run(5);
    const aSecond = a.client.submit(chat('3', { session: 'ghost' }));
    await run(5);
    expect(await aFirst).toMatchObject({ status: 'cancelled', cancelReason: 'supersede' });
    expect(a.client.cancel('ghost')).toBe(1);
    expect(await aSecond).toMatchObject({ status: 'cancelled', cancelReason: 'cancel' });
    expect(a.client.cancel('ghost')).toBe(0);
    await run(200);
    const bResult = await bJob;
    expect(bResult.error?.message).toBe(undefined);
    expect(bResult).toMatchObject({ status: 'done', text: 'a b c d e' });
    scene.close();
  });

  it("ranks jobs by tab: the focused tab's interactive job preempts a hidden tab's translation; an unfocused tab's cannot", async () => {
    const scene = sharedScene({ reply: 'w1 w2 w3 w4 w5 w6 w7 w8', tokenMs: 10 }, { size: 1 });
    const reader = scene.tab('reader');
    const writer = scene.tab('writer');
    await reader.client.load();
    reader.presence.set({ visible: false, focused: false });
    writer.presence.set({ visible: true, focused: false });
    await run(5);
    const translation = reader.client.submit(chat('page', { task: 'page', preemptible: true, onChunk: () => {} }));
    await run(25);
    void writer.client.submit(chat('typed', { priority: 'interactive', session: 'ghost' }));
    await run(5);
    const bands = scene.host.pool.getSnapshot().jobs.map((j) => [j.owner, j.priority, j.state]);
    expect(bands).toEqual([
      ['tab-1', 'low', 'running'],
      ['tab-2', 'high', 'queued'],
    ]);
    writer.client.cancel('ghost');
    writer.presence.set({ visible: true, focused: true });
    await run(5);
    const ghost = writer.client.submit(chat('typed', { priority: 'interactive', session: 'ghost' }));
    await run(5);
    const preempted = await translation;
    expect(preempted).toMatchObject({ status: 'preempted' });
    expect(preempted.text.length).toBeGreaterThan(0);
    await run(100);
    expect(await ghost).toMatchObject({ status: 'done' });
    expect(scene.host.pool.getSnapshot().recent.at(-1)).toMatchObject({ owner: 'tab-2', priority: 'interactive' });
    scene.close();
  });

  it("when a tab goes away, its jobs stop and its hold on the model goes; the other tab's jobs carry on", async () => {
    const scene = sharedScene({ reply: 'a b c d e f', tokenMs: 10 }, { size: 2 });
    const a = scene.tab('a');
    const b = scene.tab('b');
    await Promise.all([a.client.load(), b.client.load()]);
    a.client.submit(chat('long', { task: 'page' }));
    const bJob = b.client.submit(chat('mine', { task: 'notes' }));
    await run(15);
    scene.locks.drop('a'); // tab A closed: its lock is released
    await run(10);
    const live = scene.host.pool.getSnapshot().jobs.map((j) => j.owner);
    expect(live).toEqual(['tab-2']);
    expect(scene.host.pool.getSnapshot().recent.find((r) => r.owner === 'tab-1')).toMatchObject({ status: 'cancelled' });
    await run(100);
    expect(await bJob).toMatchObject({ status: 'done', text: 'a b c d e f' });
    expect(scene.host.pool.getSnapshot().size > 0).toBe(true);
    await b.client.unload();
    await run(5);
    expect(scene.host.pool.getSnapshot().size > 0).toBe(false);
    scene.close();
  });

  it("keeps the model while any tab holds it: one tab's unload cancels only its own jobs", async () => {
    const scene = sharedScene({ reply: 'a b c', tokenMs: 10 }, { size: 2 });
    const a = scene.tab('a');
    const b = scene.tab('b');
    await Promise.all([a.client.load(), b.client.load()]);
    const aJob = a.client.submit(chat('x', { task: 'one' }));
    const bJob = b.client.submit(chat('y', { task: 'two' }));
    await run(5);
    await a.client.unload();
    expect(await aJob).toMatchObject({ status: 'cancelled', cancelReason: 'unload' });
    await run(60);
    expect(await bJob).toMatchObject({ status: 'done', text: 'a b c' });
    expect(scene.host.pool.getSnapshot().size > 0).toBe(true);
    scene.close();
  });
});
