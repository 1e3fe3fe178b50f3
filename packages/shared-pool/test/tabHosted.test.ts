import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeEngines } from '@inkling/scheduler/testing';
import { type BroadcastChannelLike, HostLostError, sharedPool } from '../src/index.js';
import { manualPresence, memoryLocks } from '../src/testing/index.js';
import { chat, run, useFakeClock } from './helpers.js';

beforeEach(useFakeClock);
afterEach(() => vi.useRealTimers());

/** Tabs of one origin in one process: each with its own locks holder and channels, closable like a tab. */
function tabs(engine: Parameters<typeof fakeEngines>[0]) {
  const locks = memoryLocks();
  const factories: Array<ReturnType<typeof fakeEngines>> = [];
  const open = (name: string) => {
    const channels: BroadcastChannelLike[] = [];
    const pool = sharedPool({
      name: 'notes',
      mode: 'tab',
      pool: {
        size: 1,
        createEngine: (...args) => {
          const factory = fakeEngines(engine);
          factories.push(factory);
          return factory(...args);
        },
      },
      locks: locks.as(name),
      presence: manualPresence(),
      openChannel: (channel) => {
        const opened = new BroadcastChannel(channel) as unknown as BroadcastChannelLike;
        channels.push(opened);
        return opened;
      },
    });
    return {
      pool,
      /** The tab closes: its channels close and its locks go. */
      close() {
        for (const channel of channels) channel.close();
        locks.drop(name);
      },
    };
  };
  return { open, factories };
}

describe('the tab-hosted fallback', () => {
  it('makes the first tab the host, serves the others, and hands over to the next tab when the host tab closes', async () => {
    const scene = tabs({ reply: 'a b c d e f', tokenMs: 10 });
    const a = scene.open('a');
    const b = scene.open('b');
    await Promise.all([a.pool.load(), run(20)]);
    await Promise.all([b.pool.load(), run(20)]);
    expect(a.pool.isHost()).toBe(true);
    expect(b.pool.isHost()).toBe(false);
    expect(scene.factories).toHaveLength(1);
    expect(a.pool.mode).toBe('tab');

    const running = b.pool.submit(chat('one', { task: 'page', onChunk: () => {} }));
    const queued = b.pool.submit(chat('two', { task: 'page' }));
    await run(25);
    a.close();
    await run(10);
    const lost = await running;
    expect(lost.error).toBeInstanceOf(HostLostError);
    expect(lost.text.length).toBeGreaterThan(0);
    await run(150);
    expect(b.pool.isHost()).toBe(true);
    expect(await queued).toMatchObject({ status: 'done', text: 'a b c d e f' });
    expect(scene.factories).toHaveLength(2);
    b.close();
  });
});
