import { InklingError } from '@inkling/scheduler';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PoolClient, PoolVersionError } from '../src/index.js';
import { PROTOCOL } from '../src/protocol.js';
import { chat, run, sharedScene, useFakeClock } from './helpers.js';

beforeEach(useFakeClock);
afterEach(() => vi.useRealTimers());

/** A client that speaks the wire protocol by hand: its hello says `protocol` (or nothing, as builds before versions). */
function handClient(scene: ReturnType<typeof sharedScene>, protocol: string | undefined) {
  const { port1, port2 } = new MessageChannel();
  scene.host.host.serve(port1);
  const heard: { t: string; protocol?: string; rid?: number }[] = [];
  port2.addEventListener('message', (event) => heard.push(event.data as (typeof heard)[number]));
  port2.start();
  const hello = { t: 'hello', presence: { visible: true, focused: true }, lock: undefined };
  port2.postMessage(protocol === undefined ? hello : { ...hello, protocol });
  return { heard, send: (message: Record<string, unknown>) => port2.postMessage(message) };
}

/** A host of another build: it answers a hello with `answer`, and anything else not at all. */
function otherBuild(answer: Record<string, unknown>) {
  const hellos: unknown[] = [];
  const connect = () => {
    const { port1, port2 } = new MessageChannel();
    port1.addEventListener('message', (event) => {
      if ((event.data as { t?: string }).t !== 'hello') return;
      hellos.push(event.data);
      port1.postMessage(answer);
    });
    port1.start();
    return port2;
  };
  return { hellos, connect };
}

describe('a host and a client of different builds', () => {
  it('the host refuses a client of another protocol version, or of none, and serves the others as before', async () => {
    const scene = sharedScene({ reply: 'still here', tokenMs: 5 });
    const tab = scene.tab('current');
    await tab.client.load();
    const oldest = handClient(scene, 'inkling-pool/1');
    // The version before jobs rode the kit's calls: its `submit` messages would be misread.
    const older = handClient(scene, 'inkling-pool/2');
    const unversioned = handClient(scene, undefined);
    await run(20);
    for (const other of [oldest, older, unversioned]) {
      expect(other.heard).toEqual([{ t: 'refused', protocol: PROTOCOL }]);
      // Nothing it sends afterwards is read: the host closed its end.
      other.send({ t: 'submit', ref: 1, id: 'x', spec: { ...chat('hi'), stream: false } });
      other.send({ t: 'call', rid: 1, op: 'submit', input: { id: 'x', spec: { ...chat('hi'), stream: false } } });
    }
    await run(20);
    for (const other of [oldest, older, unversioned]) expect(other.heard.some((m) => m.t !== 'refused')).toBe(false);
    expect(scene.host.pool.getSnapshot().recent).toHaveLength(0);
    const served = tab.client.submit(chat('hi'));
    await run(40);
    expect(await served).toMatchObject({ status: 'done', text: 'still here' });
    expect(tab.client.clientId).toBe('tab-1');
    scene.close();
  });

  it('a client says its version in its hello and is welcomed with the same', async () => {
    const scene = sharedScene({ reply: 'ok' });
    const { hellos, connect } = otherBuild({
      t: 'welcome',
      protocol: PROTOCOL,
      clientId: 'c1',
      hostId: 'h',
      lock: undefined,
      timeOrigin: 0,
    });
    const client = new PoolClient({ connect, locks: null });
    client.subscribe(() => {});
    await run(20);
    expect(hellos).toMatchObject([{ t: 'hello', protocol: PROTOCOL }]);
    expect(client.clientId).toBe('c1');
    expect(client.getSnapshot().phase).not.toBe('error');
    client.close();
    scene.close();
  });

  it.each([
    ['refused by a host of a later version', { t: 'refused', protocol: 'inkling-pool/4' }, 'inkling-pool/4'],
    [
      'welcomed by a host from before versions',
      { t: 'welcome', clientId: 'c1', hostId: 'h', lock: undefined, timeOrigin: 0 },
      'no protocol version',
    ],
  ])('a client %s ends its jobs and calls with a PoolVersionError that says both versions and what to do', async (_, answer, host) => {
    const { hellos, connect } = otherBuild(answer);
    const client = new PoolClient({ connect, locks: null });
    const job = client.submit(chat('hi'));
    const load = client.load().catch((error: unknown) => error);
    await run(20);
    const result = await job;
    expect(result.status).toBe('error');
    expect(result.error).toBeInstanceOf(PoolVersionError);
    expect(result.error).toBeInstanceOf(InklingError);
    expect(result.error).toMatchObject({ name: 'PoolVersionError', kind: 'setup', retryable: false });
    expect(result.error?.message).toContain(`speaks ${host}, this page ${PROTOCOL}: different builds`);
    expect(result.error?.message).toContain('Reload the page');
    expect(await load).toBe(result.error);
    expect(client.getSnapshot()).toMatchObject({ phase: 'error', error: result.error });
    expect(client.clientId).toBeUndefined();
    // Not retried in a loop: one hello, until the app asks again.
    await run(3000);
    expect(hellos).toHaveLength(1);
    const again = client.submit(chat('again'));
    await run(20);
    expect((await again).error).toBeInstanceOf(PoolVersionError);
    expect(hellos).toHaveLength(2);
    client.close();
  });
});
