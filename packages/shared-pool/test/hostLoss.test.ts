import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { HostLostError } from '../src/index.js';
import { chat, run, sharedScene, useFakeClock } from './helpers.js';

beforeEach(useFakeClock);
afterEach(() => vi.useRealTimers());

describe('losing the host', () => {
  it('ends running jobs with a retryable HostLostError keeping their text, moves queued ones to a new host, and works again', async () => {
    const scene = sharedScene({ reply: 'a b c d e f g h', tokenMs: 10 }, { size: 1 });
    const { client } = scene.tab('a');
    await client.load();
    const running = client.submit(chat('first', { task: 'page', onChunk: () => {} }));
    const queued = client.submit(chat('second', { task: 'page' }));
    await run(35);
    const dead = scene.kill();
    await run(5);
    const lost = await running;
    expect(lost.error).toBeInstanceOf(HostLostError);
    expect(lost).toMatchObject({ status: 'error', error: { retryable: true } });
    expect(lost.text).toMatch(/^a b c/);
    expect(client.hostLosses).toBe(1);
    await run(100);
    expect(await queued).toMatchObject({ status: 'done', text: 'a b c d e f g h' });
    // The new host loaded its own engine for the tab that held the model, and serves new work.
    expect(scene.host.createEngine.builds.get(0)).toBe(1);
    expect(client.getSnapshot().phase).toBe('ready');
    const after = client.submit(chat('third'));
    await run(100);
    expect(await after).toMatchObject({ status: 'done' });
    await dead.pool.unload();
    scene.close();
  });

  it('tells a failed connection apart: everything waiting ends with the reason, the next call tries again', async () => {
    const scene = sharedScene({ reply: 'x' });
    let refuse = true;
    const { PoolClient } = await import('../src/index.js');
    const client = new PoolClient({
      connect: () => {
        if (refuse) throw new Error('worker script failed to load');
        const { port1, port2 } = new MessageChannel();
        scene.host.host.serve(port1);
        return port2;
      },
      locks: scene.locks.as('tab'),
    });
    const job = await client.submit(chat('hi'));
    expect(job.error).toBeInstanceOf(HostLostError);
    expect(job.error?.message).toContain('worker script failed to load');
    expect(client.getSnapshot().phase).toBe('error');
    refuse = false;
    await client.load();
    const ok = client.submit(chat('again'));
    await run(20);
    expect(await ok).toMatchObject({ status: 'done', text: 'x' });
    client.close();
    scene.close();
  });
});

describe("without Web Locks (an extension's runtime ports)", () => {
  it('learns of a lost host and of a gone tab from the endpoint closing', async () => {
    const { EnginePool } = await import('@inkling/scheduler');
    const { fakeEngines } = await import('@inkling/scheduler/testing');
    const { PoolClient, PoolHost } = await import('../src/index.js');
    const start = () =>
      new PoolHost(new EnginePool({ createEngine: fakeEngines({ reply: 'a b c d e f', tokenMs: 10 }), size: 1 }), { locks: null });
    let host = start();
    let hostPort: MessagePort | undefined;
    const client = new PoolClient({
      connect: () => {
        const { port1, port2 } = new MessageChannel();
        hostPort = port1;
        host.serve(port1, { label: 'popup' });
        return port2;
      },
      locks: null,
    });
    await client.load();
    expect(client.clientId).toBe('popup');
    const running = client.submit(chat('x', { onChunk: () => {} }));
    await run(25);
    const dead = host;
    host = start();
    hostPort!.close(); // the offscreen document went away
    await run(10);
    expect((await running).error).toBeInstanceOf(HostLostError);
    expect(dead.clients).toBe(0);
    const again = client.submit(chat('y'));
    await run(100);
    expect(await again).toMatchObject({ status: 'done', text: 'a b c d e f' });
    expect(host.clients).toBe(1);
    client.close();
    await run(5);
    expect(host.clients).toBe(0);
    await dead.pool.unload();
  });
});
