import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { InvalidOptionError } from '@inkling/scheduler';
import { HostLostError, HostUnavailableError, PoolClient } from '../src/index.js';
import { chat, run, sharedScene, useFakeClock } from './helpers.js';

beforeEach(useFakeClock);
afterEach(() => vi.useRealTimers());

/**
 * A connect() with nothing behind it while `hostUp` is false: the endpoint
 * closes at once, as an extension's runtime port with no receiver does.
 */
function flakyHost(scene: ReturnType<typeof sharedScene>) {
  const state = { hostUp: false, connects: 0, misses: [] as (HostUnavailableError | undefined)[] };
  const connect = (lastMiss?: HostUnavailableError) => {
    state.connects += 1;
    state.misses.push(lastMiss);
    const { port1, port2 } = new MessageChannel();
    if (state.hostUp) scene.host.host.serve(port1);
    else port1.close();
    return port2;
  };
  return { state, connect };
}

const anyPort = () => new MessageChannel().port1;

describe('looking for a host that is not there', () => {
  it('backs off (a handful of connects a second, not hundreds), then reaches the host once it appears', async () => {
    const scene = sharedScene({ reply: 'a b c' }, { size: 1 });
    const { state, connect } = flakyHost(scene);
    const client = new PoolClient({ connect, locks: null, reconnect: { random: () => 0.5 } });
    const loaded = client.load();
    const job = client.submit(chat('hi'));
    await run(1000);
    // Pauses of 75, 150, 300, 600 ms (100 ms doubling, jittered to 75 %): 4 connects in the first second.
    expect(state.connects).toBeGreaterThanOrEqual(2);
    expect(state.connects).toBeLessThanOrEqual(5);
    await run(3000);
    expect(state.connects).toBeLessThanOrEqual(7);
    // Each retry is told why the last one failed.
    expect(state.misses[0]).toBeUndefined();
    expect(state.misses[1]).toBeInstanceOf(HostUnavailableError);
    expect(state.misses[1]?.message).toContain('closed before the host answered');
    // Misses are not host losses: nothing was lost.
    expect(client.hostLosses).toBe(0);
    state.hostUp = true;
    await run(2100);
    expect(await loaded).toBe(1);
    expect(await job).toMatchObject({ status: 'done', text: 'a b c' });
    const before = state.connects;
    // A welcome resets the pause: a later host loss reconnects at once.
    const next = client.submit(chat('again'));
    await run(50);
    expect(await next).toMatchObject({ status: 'done' });
    expect(state.connects).toBe(before);
    client.close();
    scene.close();
  });

  it('gives up after giveUpAfterMs with a typed error that says what to check; the next call tries again', async () => {
    const scene = sharedScene({ reply: 'ok' }, { size: 1 });
    const { state, connect } = flakyHost(scene);
    const client = new PoolClient({ connect, locks: null, reconnect: { giveUpAfterMs: 3000 } });
    const job = client.submit(chat('hi'));
    const load = client.load().catch((error: unknown) => error);
    await run(6000);
    const result = await job;
    expect(result.status).toBe('error');
    expect(result.error).toBeInstanceOf(HostUnavailableError);
    expect(result.error).toBeInstanceOf(HostLostError);
    expect(result.error?.message).toMatch(/No pool host answered for \d+ ms \(\d+ tries\)\. No welcome from the pool's host: /);
    expect(await load).toBeInstanceOf(HostUnavailableError);
    expect(client.getSnapshot().phase).toBe('error');
    const tries = state.connects;
    expect(tries).toBeLessThanOrEqual(8);
    await run(2000);
    expect(state.connects).toBe(tries); // given up: nothing more until asked
    state.hostUp = true;
    const again = client.submit(chat('again'));
    await run(100);
    expect(await again).toMatchObject({ status: 'done', text: 'ok' });
    client.close();
    scene.close();
  });

  it('close() while it waits between tries stops looking, and its jobs end cancelled', async () => {
    const scene = sharedScene({ reply: 'x' }, { size: 1 });
    const { state, connect } = flakyHost(scene);
    const client = new PoolClient({ connect, locks: null });
    const job = client.submit(chat('hi'));
    await run(120);
    const tries = state.connects;
    client.close();
    expect(await job).toMatchObject({ status: 'cancelled', cancelReason: 'cancel' });
    await run(5000);
    expect(state.connects).toBe(tries);
    scene.close();
  });

  it('counts an endpoint that never answers as a miss after handshakeTimeoutMs', async () => {
    const scene = sharedScene({ reply: 'ok' }, { size: 1 });
    let connects = 0;
    const silent: MessagePort[] = [];
    const client = new PoolClient({
      connect: () => {
        connects += 1;
        const { port1, port2 } = new MessageChannel();
        if (connects === 1) silent.push(port1); // opened, but nobody serves it
        else scene.host.host.serve(port1);
        return port2;
      },
      locks: null,
      reconnect: { handshakeTimeoutMs: 500 },
    });
    void client.load();
    const job = client.submit(chat('hi'));
    await run(400);
    expect(connects).toBe(1);
    await run(400);
    expect(connects).toBe(2);
    expect(await job).toMatchObject({ status: 'done', text: 'ok' });
    client.close();
    for (const port of silent) port.close();
    scene.close();
  });

  it('refuses bad reconnect settings with a typed error naming the option', () => {
    expect(() => new PoolClient({ connect: anyPort, reconnect: { delayMs: -1 } })).toThrow(InvalidOptionError);
    expect(() => new PoolClient({ connect: anyPort, reconnect: { giveUpAfterMs: 'soon' as never } })).toThrow(/reconnect\.giveUpAfterMs/);
    expect(() => new PoolClient({ connect: anyPort, timers: {} as never })).toThrow(/"timers"/);
  });

  it('says what each bad option must be and what it got, in the house sentence', () => {
    const cases: [() => unknown, string][] = [
      [
        () => new PoolClient(undefined as never),
        'PoolClient "connect" must be a function that returns an endpoint to the host, e.g. () => sharedWorker.port; it got undefined.',
      ],
      [
        () => new PoolClient({ connect: anyPort, timers: {} as never }),
        'PoolClient "timers" must be an object with setTimeout and clearTimeout functions; it got object.',
      ],
      [
        () => new PoolClient({ connect: anyPort, reconnect: null as never }),
        'PoolClient "reconnect" must be an object such as { delayMs: 100, giveUpAfterMs: 15000 }; it got null.',
      ],
      [
        () => new PoolClient({ connect: anyPort, reconnect: { random: 0.5 as never } }),
        'PoolClient "reconnect.random" must be a function returning a number from 0 to 1, like Math.random; it got number.',
      ],
      [
        () => new PoolClient({ connect: anyPort, locks: null }).configure('fast' as never),
        'PoolClient configure() must be given an object of settings, e.g. { decodeSteps: 4 }; it got string.',
      ],
    ];
    for (const [make, message] of cases) {
      expect(make).toThrow(InvalidOptionError);
      expect(make).toThrow(message);
    }
  });
});
