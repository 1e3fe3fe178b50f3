import { EngineError, EngineLoadError, InklingError, InvalidJobError, InvalidOptionError } from '@inkling/scheduler';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { chat, flush, run, sharedScene, useFakeClock } from './helpers.js';
import { PROTOCOL } from '../src/protocol.js';

beforeEach(useFakeClock);
afterEach(() => vi.useRealTimers());

class QuotaError extends InklingError {
  override name = 'QuotaError';
  readonly status = 429;
  override readonly retryable = true;
  readonly requestId = 'req-7';
}

describe('a PoolClient over a MessagePort', () => {
  it('streams chunks as they come and resolves with the whole result', async () => {
    const scene = sharedScene({ reply: 'one two three', tokenMs: 10 });
    const { client } = scene.tab('a');
    await client.load();
    const seen: string[] = [];
    const result = client.submit(chat('hi', { onChunk: (chunk) => seen.push(chunk.choices[0]?.delta.content ?? '') }));
    await run(5);
    expect(seen.join('')).toBe('one');
    await run(50);
    expect(await result).toMatchObject({ status: 'done', text: 'one two three', id: 'job-1' });
    expect(seen.join('')).toBe('one two three');
    scene.close();
  });

  it("reports an onChunk that throws and streams on: the app's listener never breaks the job", async () => {
    const reported: unknown[] = [];
    const original = globalThis.reportError;
    globalThis.reportError = (error: unknown) => reported.push(error);
    try {
      const scene = sharedScene({ reply: 'one two', tokenMs: 10 });
      const { client } = scene.tab('a');
      await client.load();
      const result = client.submit(
        chat('hi', {
          onChunk: () => {
            throw new Error('listener bug');
          },
        }),
      );
      await run(50);
      expect(await result).toMatchObject({ status: 'done', text: 'one two' });
      expect(reported.length).toBeGreaterThan(0);
      expect(reported.every((error) => (error as Error).message === 'listener bug')).toBe(true);
      scene.close();
    } finally {
      globalThis.reportError = original;
    }
  });

  it('turns an abort into a cancel: the job resolves at once and the host stops its engine', async () => {
    const scene = sharedScene({ reply: 'a b c d e f g h', tokenMs: 10 });
    const { client } = scene.tab('a');
    await client.load();
    const controller = new AbortController();
    const job = client.submit(chat('hi', { signal: controller.signal, onChunk: () => {} }));
    await run(25);
    controller.abort();
    const result = await job;
    expect(result).toMatchObject({ status: 'cancelled', cancelReason: 'abort' });
    expect(result.text.length).toBeGreaterThan(0);
    await run(30);
    const calls = scene.host.createEngine.engines[0]!.calls;
    expect(calls[0]?.interrupts).toBeGreaterThan(0);
    expect(calls[0]?.tokens).toBeLessThan(8);
    expect(scene.host.pool.getSnapshot().recent[0]).toMatchObject({ status: 'cancelled', cancelReason: 'abort', owner: 'tab-1' });
    scene.close();
  });

  it("rebuilds errors with their class and own fields: the scheduler's built in, an app's when registered", async () => {
    const scene = sharedScene({ reply: 'x' });
    const plain = scene.tab('a');
    const registered = scene.tab('b', { errorClasses: { QuotaError } });
    await plain.client.load();
    const bad = await plain.client.submit(chat('hi', { priority: 'urgent' as never }));
    expect(bad.error).toBeInstanceOf(InvalidJobError);
    expect(bad.error?.message).toContain('"priority" must be one of "interactive", "high", "normal", "low"; it got "urgent"');

    const engine = scene.host.createEngine.engines[0]!;
    engine.failNext(new TypeError('tokenizer broke'));
    const failed = await plain.client.submit(chat('hi'));
    expect(failed.error).toBeInstanceOf(EngineError);
    expect(failed.error?.cause).toBeInstanceOf(TypeError);
    expect(failed.error?.cause).toMatchObject({ message: 'tokenizer broke' });

    engine.failNext(new QuotaError('slow down'));
    const quota = await registered.client.submit(chat('hi'));
    expect(quota.error).toBeInstanceOf(QuotaError);
    expect(quota.error).toMatchObject({ name: 'QuotaError', message: 'slow down', status: 429, retryable: true, requestId: 'req-7' });

    engine.failNext(new QuotaError('slow down'));
    const unknown = await plain.client.submit(chat('hi'));
    expect(unknown.error).toBeInstanceOf(InklingError);
    expect(unknown.error).not.toBeInstanceOf(QuotaError);
    expect(unknown.error).toMatchObject({ name: 'QuotaError', status: 429 });
    scene.close();
  });

  it("rejects a failed load with its class, and shows it as the snapshot's error", async () => {
    const scene = sharedScene({ failLoad: () => new Error('no adapter') });
    const { client } = scene.tab('a');
    await expect(client.load()).rejects.toBeInstanceOf(EngineLoadError);
    await run(40);
    expect(client.getSnapshot().phase).toBe('error');
    expect(client.getSnapshot().error).toBeInstanceOf(EngineLoadError);
    expect(client.getSnapshot().error?.message).toContain('no adapter');
    scene.close();
  });

  it('refuses, on the spot, a spec that cannot cross (a function in params) and an id it already uses', async () => {
    const scene = sharedScene({ reply: 'x', tokenMs: 5 });
    const { client } = scene.tab('a');
    await client.load();
    const spec = chat('hi');
    (spec.params as Record<string, unknown>).transform = () => 1;
    const refused = await client.submit(spec);
    expect(refused.error).toBeInstanceOf(InvalidJobError);
    expect(refused.error?.message).toContain('cannot be sent to the shared pool');
    const first = client.submit(chat('a', { id: 'same' }));
    const again = await client.submit(chat('b', { id: 'same' }));
    expect(again.error?.message).toContain('"same" is already queued or running');
    await run(20);
    expect((await first).status).toBe('done');
    expect(() => client.configure(null as never)).toThrow(InvalidOptionError);
    scene.close();
  });

  it('pushes snapshots at most once a frame, and only when something changed', async () => {
    const scene = sharedScene({ reply: Array.from({ length: 60 }, (_, i) => `w${i}`).join(' '), tokenMs: 2 });
    const { client } = scene.tab('a');
    const pushes: number[] = [];
    client.subscribe(() => pushes.push(performance.now()));
    await client.load();
    await run(20);
    pushes.length = 0;
    const job = client.submit(chat('hi', { onChunk: () => {} }));
    await run(200);
    expect((await job).text.split(' ')).toHaveLength(60);
    // 120 ms of tokens, one change every 2 ms: about 8 frames, never 60 pushes.
    expect(pushes.length).toBeGreaterThanOrEqual(4);
    expect(pushes.length).toBeLessThanOrEqual(12);
    for (let i = 1; i < pushes.length; i += 1) expect(pushes[i]! - pushes[i - 1]!).toBeGreaterThanOrEqual(15);
    const settled = pushes.length;
    await run(100);
    expect(pushes.length).toBe(settled);
    scene.close();
  });

  it("forwards configure to the host's engines and keeps it for the next host", async () => {
    const configured: Array<Record<string, unknown>> = [];
    const scene = sharedScene({ reply: 'x' });
    const { client } = scene.tab('a');
    await client.load();
    const engine = scene.host.createEngine.engines[0]!;
    Object.assign(engine, { configure: (patch: Record<string, unknown>) => configured.push(patch) });
    client.configure({ decodeSteps: 4 });
    await flush();
    expect(configured).toEqual([{ decodeSteps: 4 }]);
    scene.close();
  });
});

describe('a closed PoolClient', () => {
  it('ends a job submitted after close() at once with the typed cancel error: nothing will answer it', async () => {
    const scene = sharedScene({ reply: 'late' });
    const { client } = scene.tab('a');
    await client.load();
    client.close();
    const result = await client.submit(chat('too late'));
    expect(result).toMatchObject({ status: 'error', error: { name: 'CallCancelledError', kind: 'cancelled' } });
    expect(scene.host.pool.getSnapshot().jobs).toEqual([]);
    scene.close();
  });
});

describe('bad options', () => {
  it('are typed errors that name the option and the fix', async () => {
    const { EnginePool } = await import('@inkling/scheduler');
    const { fakeEngines } = await import('@inkling/scheduler/testing');
    const { PoolClient, PoolHost, sharedPool } = await import('../src/index.js');
    const pool = new EnginePool({ createEngine: fakeEngines() });
    expect(() => new PoolHost(pool, { snapshotIntervalMs: -1, locks: null })).toThrow(
      /PoolHost "snapshotIntervalMs" must be a number of milliseconds/,
    );
    expect(() => new PoolHost({} as never)).toThrow(InvalidOptionError);
    expect(() => new PoolClient({} as never)).toThrow('PoolClient "connect" must be a function that returns an endpoint');
    expect(() => new PoolHost(pool, { view: 'every' as never, locks: null })).toThrow(
      'PoolHost "view" must be "own" or "all"; it got "every".',
    );
    expect(() => new PoolClient({ connect: () => new MessageChannel().port1, reconnect: { delayMs: -1 } })).toThrow(
      /^PoolClient "reconnect.delayMs" must be a number of milliseconds/,
    );
    expect(() => sharedPool({ name: '' })).toThrow(/needs a name/);
    expect(() => sharedPool({ name: 'notes', mode: 'tab' })).toThrow(/give pool: \{ createEngine \}/);
    expect(() => sharedPool({ name: 'notes', mode: 'shared-worker' })).toThrow(/needs worker:/);
  });
});

describe('a host given bad messages', () => {
  it('ignores foreign ones, answers a malformed submit with an InvalidJobError, and keeps serving everyone', async () => {
    const scene = sharedScene({ reply: 'fine', tokenMs: 5 });
    const { client } = scene.tab('good');
    await client.load();
    const { port1, port2 } = new MessageChannel();
    scene.host.host.serve(port1);
    const heard: unknown[] = [];
    port2.addEventListener('message', (event) => heard.push(event.data));
    port2.start();
    port2.postMessage({ t: 'hello', protocol: PROTOCOL, presence: { visible: true, focused: true }, lock: undefined });
    port2.postMessage('not a protocol message');
    port2.postMessage({ t: 'nonsense' });
    port2.postMessage({ t: 'call', op: 'submit', input: { id: 'x', spec: null } });
    await run(20);
    const result = heard.find((m) => (m as { t?: string }).t === 'reply') as {
      rid: number;
      value: { status: string; error: { name: string; message: string } };
    };
    expect(result).toMatchObject({ rid: -1, value: { status: 'error', error: { name: 'InvalidJobError' } } });
    expect(result.value.error.message).toContain('needs a "rid" number and an input with an "id" string and a "spec" object');
    const ok = client.submit(chat('still there?'));
    await run(20);
    expect(await ok).toMatchObject({ status: 'done', text: 'fine' });
    port2.close();
    scene.close();
  });
});
