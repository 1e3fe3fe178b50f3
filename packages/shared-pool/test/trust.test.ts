import { EnginePool, InvalidJobError, InvalidOptionError, SUPERSEDED } from '@inkling/scheduler';
import { fakeEngines } from '@inkling/scheduler/testing';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ClientLimitError, PoolHost, type SharedPoolStatus } from '../src/index.js';
import { chat, run, sharedScene, useFakeClock } from './helpers.js';
import { PROTOCOL } from '../src/protocol.js';

beforeEach(useFakeClock);
afterEach(() => vi.useRealTimers());

type Heard = {
  t: string;
  rid?: number;
  value?: { id: string; status: string; error?: { name: string; message: string } };
  error?: { name: string };
};

/** A client that speaks the wire protocol by hand, as a hostile page could. */
function rawClient(host: PoolHost) {
  const { port1, port2 } = new MessageChannel();
  host.serve(port1);
  const heard: Heard[] = [];
  port2.addEventListener('message', (event) => heard.push(event.data as Heard));
  port2.start();
  port2.postMessage({ t: 'hello', protocol: PROTOCOL, presence: { visible: true, focused: true }, lock: undefined });
  return {
    heard,
    send: (message: Record<string, unknown>) => port2.postMessage(message),
    /** A job, as the kit's `submit` call. */
    submit: (rid: number, id: string, spec: unknown) => port2.postMessage({ t: 'call', rid, op: 'submit', input: { id, spec } }),
    /** The replies that are job results. */
    results: () => heard.filter((m) => m.t === 'reply' && m.value !== undefined && 'status' in m.value),
    close: () => port2.close(),
  };
}

/** The fake engine answers each prompt by name. */
const reply = (request: { messages: readonly { content?: unknown }[] }) => `answer to ${String(request.messages.at(-1)?.content)}`;

const spec = (content: string, extra: Record<string, unknown> = {}) => ({ ...chat(content), stream: false, ...extra });

describe('what a client sees of the others (the own view, by default)', () => {
  it("shows another client's jobs only as counts per band: no id, session, task, timing or error text", async () => {
    const scene = sharedScene({ reply: 'a b c d e f', tokenMs: 10 }, { size: 1 });
    const victim = scene.tab('victim');
    await victim.client.load();
    const spy = rawClient(scene.host.host);
    scene.host.createEngine.engines[0]!.failNext(new Error('card 4111 1111 1111 1111 is invalid'));
    const failed = await victim.client.submit(chat('pay', { id: 'secret-id-1', task: 'secret-task' }));
    expect(failed.error?.message).toContain('4111');
    void victim.client.submit(chat('typing', { id: 'secret-id-2', session: 'secret-session', onChunk: () => {} }));
    void victim.client.submit(chat('later', { id: 'secret-id-3', priority: 'low' }));
    await run(30);

    const snapshots = spy.heard.filter((m) => m.t === 'snapshot');
    expect(snapshots.length).toBeGreaterThan(0);
    const wire = JSON.stringify(snapshots);
    for (const secret of ['4111', 'secret', 'tab-1']) expect(wire).not.toContain(secret);
    const last = (snapshots.at(-1) as unknown as { status: SharedPoolStatus }).status;
    expect(last.others).toEqual({ interactive: 0, high: 0, normal: 1, low: 1 });
    expect(last).toMatchObject({ running: 1, queued: 1, jobs: [], recent: [] });

    // Its owner still sees its own in full, error text included.
    const own = victim.client.getSnapshot() as SharedPoolStatus;
    expect(own.jobs.map((j) => j.id)).toEqual(['secret-id-2', 'secret-id-3']);
    expect(own.recent.find((r) => r.id === 'secret-id-1')?.error).toContain('4111');
    expect(own.engines[0]?.jobs).toEqual(['secret-id-2']);
    expect(own.others).toEqual({ interactive: 0, high: 0, normal: 0, low: 0 });
    spy.close();
    scene.close();
  });

  it("gives the full view to a client the host opts in (an app's own inspector), and refuses a view it does not know", async () => {
    const scene = sharedScene({ reply: 'a b c', tokenMs: 10 }, { size: 1 });
    const tab = scene.tab('tab');
    await tab.client.load();
    const { port1, port2 } = new MessageChannel();
    scene.host.host.serve(port1, { label: 'inspector', view: 'all' });
    const heard: Heard[] = [];
    port2.addEventListener('message', (event) => heard.push(event.data as Heard));
    port2.start();
    port2.postMessage({ t: 'hello', protocol: PROTOCOL, presence: { visible: true, focused: true }, lock: undefined });
    void tab.client.submit(chat('x', { id: 'visible-to-inspector' }));
    await run(10);
    expect(JSON.stringify(heard.filter((m) => m.t === 'snapshot'))).toContain('tab-1|visible-to-inspector');
    expect(() => new PoolHost(new EnginePool({ createEngine: fakeEngines() }), { view: 'everything' as never, locks: null })).toThrow(
      InvalidOptionError,
    );
    port2.close();
    scene.close();
  });
});

describe("a job's identity on the wire", () => {
  it('never resolves a job with the answer of a cancelled one that had the same id', async () => {
    const scene = sharedScene({ reply, tokenMs: 10 }, { size: 1 });
    const { client } = scene.tab('a');
    await client.load();
    const firstChunks: string[] = [];
    const secondChunks: string[] = [];
    const first = client.submit(chat('FIRST', { id: 'w', onChunk: (c) => firstChunks.push(c.choices[0]?.delta.content ?? '') }));
    await run(15);
    expect(client.cancel('w')).toBe(1);
    const second = client.submit(chat('SECOND', { id: 'w', onChunk: (c) => secondChunks.push(c.choices[0]?.delta.content ?? '') }));
    await run(100);
    expect(await first).toMatchObject({ status: 'cancelled', id: 'w' });
    expect(await second).toMatchObject({ status: 'done', id: 'w', text: 'answer to SECOND' });
    expect(secondChunks.join('')).toBe('answer to SECOND');
    scene.close();
  });
});

describe('what a host takes from one client', () => {
  it('refuses a 2 MB id, session or task to that client alone, with a ClientLimitError, and never runs or shows it', async () => {
    const scene = sharedScene({ reply: 'ok', tokenMs: 5 }, { size: 1 });
    const good = scene.tab('good');
    await good.client.load();
    const goodSnapshots: string[] = [];
    good.client.subscribe(() => goodSnapshots.push(JSON.stringify(good.client.getSnapshot())));
    const huge = 'x'.repeat(2_000_000);
    const bad = scene.tab('bad');
    const byId = await bad.client.submit(chat('hi', { id: huge }));
    const bySession = await bad.client.submit(chat('hi', { session: huge }));
    const byTask = await bad.client.submit(chat('hi', { task: huge }));
    for (const result of [byId, bySession, byTask]) {
      expect(result.error).toBeInstanceOf(ClientLimitError);
      expect(result.error).toBeInstanceOf(InvalidJobError);
      expect(result.error?.message).toMatch(
        /has 2000000 characters; this shared pool takes at most 256 \(PoolHost "limits.maxKeyLength"\)/,
      );
    }
    const ok = good.client.submit(chat('hi', { priority: 'interactive' }));
    await run(20);
    expect(await ok).toMatchObject({ status: 'done', text: 'ok' });
    expect(scene.host.pool.getSnapshot().recent.every((r) => r.id.length < 300 && r.task.length < 300)).toBe(true);
    expect(goodSnapshots.every((s) => s.length < 10_000)).toBe(true);
    // The same client may still send what is within the limits.
    expect(await bad.client.submit(chat('hi'))).toMatchObject({ status: 'done' });
    scene.close();
  });

  it('refuses too many messages, too much text, too deep a spec and too many live jobs, leaving the rest running', async () => {
    const scene = sharedScene(
      { reply: 'a b c d e f g h', tokenMs: 10 },
      { size: 1 },
      { limits: { maxMessages: 4, maxSpecChars: 1000, maxJobsPerClient: 2 } },
    );
    const good = scene.tab('good');
    await good.client.load();
    const bad = rawClient(scene.host.host);
    const messages = Array.from({ length: 5 }, () => ({ role: 'user', content: 'hi' }));
    let deep: Record<string, unknown> = {};
    for (let i = 0; i < 100; i += 1) deep = { deep };
    bad.submit(1, 'many', { params: { messages }, stream: false });
    bad.submit(2, 'long', spec('y'.repeat(1001)));
    bad.submit(3, 'deep', { ...spec('z'), params: { ...chat('z').params, deep } });
    bad.submit(4, 'one', spec('1'));
    bad.submit(5, 'two', spec('2'));
    bad.submit(6, 'three', spec('3'));
    await run(10);
    const refused = bad.results().map((m) => [m.rid, m.value?.error?.name, m.value?.error?.message]);
    expect(refused).toEqual([
      [1, 'ClientLimitError', expect.stringContaining('has 5 messages; this shared pool takes at most 4')],
      [2, 'ClientLimitError', expect.stringContaining('more than 1000 characters')],
      [3, 'ClientLimitError', expect.stringContaining('nests deeper than 32 levels')],
      [6, 'ClientLimitError', expect.stringContaining('This client has 2 jobs queued or running')],
    ]);
    // Another client has its own allowance.
    const mine = [good.client.submit(chat('a')), good.client.submit(chat('b'))];
    await run(400);
    for (const result of await Promise.all(mine)) expect(result).toMatchObject({ status: 'done' });
    expect(
      bad
        .results()
        .filter((m) => m.value?.status === 'done')
        .map((m) => m.rid),
    ).toEqual([4, 5]);
    expect(() => new PoolHost(new EnginePool({ createEngine: fakeEngines() }), { limits: { maxKeyLength: 0 }, locks: null })).toThrow(
      'PoolHost "limits.maxKeyLength" must be a whole number of characters, 1 or more; it got 0.',
    );
    // Settings for the engines are bounded the same way; the refusal is that client's reply alone.
    bad.send({ t: 'call', rid: 9, op: 'configure', input: { note: 'z'.repeat(1001) } });
    await run(5);
    expect(bad.heard.find((m) => m.t === 'reply' && m.rid === 9)).toMatchObject({ error: { name: 'ClientLimitError' } });
    bad.close();
    scene.close();
  });
});

describe('a client that says hello again', () => {
  it('is welcomed once, and its lock watched once', async () => {
    const scene = sharedScene({ reply: 'ok' });
    const bad = rawClient(scene.host.host);
    for (let i = 0; i < 10; i += 1)
      bad.send({ t: 'hello', protocol: PROTOCOL, presence: { visible: true, focused: true }, lock: `lock-${i}` });
    await run(10);
    expect(bad.heard.filter((m) => m.t === 'welcome')).toHaveLength(1);
    // Only the first hello's lock is watched: the others' holders going away closes nothing.
    scene.locks.drop('lock-5');
    await run(5);
    expect(scene.host.host.clients).toBe(1);
    bad.close();
    scene.close();
  });
});

describe('a client that goes', () => {
  it('takes every job with it: the same id, or the same rid, submitted twice, then bye', async () => {
    const scene = sharedScene({ reply: 'w1 w2 w3 w4 w5 w6 w7 w8 w9', tokenMs: 10 }, { size: 2 });
    const good = scene.tab('good');
    await good.client.load();
    const bad = rawClient(scene.host.host);
    bad.submit(1, 'x', spec('first', { task: 'one' }));
    bad.submit(2, 'x', spec('second', { task: 'two' }));
    bad.submit(3, 'y', spec('third', { task: 'three' }));
    bad.submit(3, 'z', spec('fourth', { task: 'four' }));
    await run(15);
    bad.send({ t: 'bye' });
    await run(10);
    expect(scene.host.pool.getSnapshot().jobs).toEqual([]);
    for (const engine of scene.host.createEngine.engines) for (const call of engine.calls) expect(call.tokens).toBeLessThan(9);
    // The second "x" was refused by the pool (a live id), the second rid 3 at the door.
    const refused = bad.results().map((m) => [m.rid, m.value?.error?.message]);
    expect(refused).toEqual(
      expect.arrayContaining([
        [2, expect.stringContaining('already')],
        [3, expect.stringContaining('reused "rid" 3 of a live job')],
      ]),
    );
    bad.close();
    scene.close();
  });
});

describe('fairness between tabs', () => {
  it("starts another tab's one normal job next, not behind 300 of one tab's", async () => {
    const scene = sharedScene({ reply: 'a b', tokenMs: 2 }, { size: 1 });
    const flood = scene.tab('flood');
    const other = scene.tab('other');
    await flood.client.load();
    const many = Array.from({ length: 300 }, (_, i) => flood.client.submit(chat(`item ${i}`, { task: 'page' })));
    await run(2);
    let waitingWhenMineEnded = -1;
    const one = other.client.submit(chat('mine')).then((result) => {
      waitingWhenMineEnded = scene.host.pool.getSnapshot().queued;
      return result;
    });
    await run(40);
    // Done while nearly all of the 300 still wait (-1: not done yet).
    expect(waitingWhenMineEnded).toBeGreaterThan(280);
    expect(await one).toMatchObject({ status: 'done' });
    await run(800);
    expect((await Promise.all(many)).every((r) => r.status === 'done')).toBe(true);
    scene.close();
  });
});

describe('a keystroke’s stale request across the port', () => {
  it('is recorded superseded on the host and in the tab when its signal is aborted with SUPERSEDED', async () => {
    const scene = sharedScene({ reply: 'a b c d e f g h', tokenMs: 10 }, { size: 1 });
    const tab = scene.tab('typing');
    await tab.client.load();
    const controller = new AbortController();
    const job = tab.client.submit(chat('stale', { id: 'stale', onChunk: () => {}, signal: controller.signal }));
    await run(25);
    controller.abort(SUPERSEDED);
    expect((await job).cancelReason).toBe('supersede');
    await run(30);
    expect(scene.host.host.pool.getSnapshot().recent.map((record) => record.cancelReason)).toContain('supersede');
  });
});

describe('a job on the wire (the kit calls)', () => {
  it('streams its chunks as its call’s progress and ends with the reply; a close stops it on the host with its reason', async () => {
    const scene = sharedScene({ reply: 'a b c d e f g h', tokenMs: 10 }, { size: 1 });
    const good = scene.tab('good');
    await good.client.load();
    const raw = rawClient(scene.host.host);
    raw.submit(1, 'whole', spec('one', { stream: true }));
    await run(300);
    const progress = raw.heard.filter((m) => m.t === 'progress' && m.rid === 1) as unknown as { report: { choices: unknown[] } }[];
    expect(progress.length).toBeGreaterThan(3);
    expect(progress[0]!.report.choices).toBeDefined();
    expect(raw.results()).toEqual([expect.objectContaining({ rid: 1, value: expect.objectContaining({ id: 'whole', status: 'done' }) })]);
    raw.submit(2, 'replaced', spec('two', { stream: true }));
    raw.submit(3, 'dropped', spec('three'));
    await run(35);
    raw.send({ t: 'close', rid: 2, reason: 'supersede' });
    raw.send({ t: 'close', rid: 3 });
    // A close for a call that is not running, or not a call at all, is nothing.
    raw.send({ t: 'close', rid: 99 });
    raw.send({ t: 'close', rid: 'x' });
    await run(300);
    const ends = raw.results().map((m) => [m.rid, m.value?.status, (m.value as { cancelReason?: string } | undefined)?.cancelReason]);
    expect(ends).toEqual([
      [1, 'done', undefined],
      [2, 'cancelled', 'supersede'],
      [3, 'cancelled', 'abort'],
    ]);
    const fine = good.client.submit(chat('still fine'));
    await run(200);
    expect(await fine).toMatchObject({ status: 'done' });
    raw.close();
    scene.close();
  });
});
