import { EnginePool, InvalidSchemaError } from '@inkling/scheduler';
import { afterEach, describe, expect, it } from 'vitest';
import { JSON_ALPHABET, fakeLanePipeline } from './fakeLanePipeline.js';
import { fakeWebLLM, until } from './helpers.js';
import { nodeXGrammar } from './nodeXGrammar.js';

const ask = (content: string) => ({ messages: [{ role: 'user' as const, content }], temperature: 0, max_tokens: 5 });
const pools: EnginePool[] = [];
afterEach(async () => {
  await Promise.all(pools.splice(0).map((pool) => pool.unload()));
});

async function poolOf(lanes: number | undefined, size = 2) {
  const fakes: Array<ReturnType<typeof fakeLanePipeline>> = [];
  const pipeline = () => {
    const fake = fakeLanePipeline();
    fakes.push(fake);
    return fake.pipeline;
  };
  const { createEngine, workers } = fakeWebLLM({ pipeline }, lanes === undefined ? {} : { lanes });
  const pool = new EnginePool({ createEngine, size });
  pools.push(pool);
  const log: string[] = [];
  await pool.load((p) => log.push(p.text));
  return { pool, fakes, workers, log };
}

describe('webllmEngines with lanes (hostWebLLM over a stand-in pipeline)', () => {
  it('one engine takes four tasks and a keystroke at once on its lanes (default 4, and 1 kept for interactive work), without loading a second', async () => {
    const { pool, fakes, log } = await poolOf(undefined);
    expect(log.at(-1)).toMatch(/Lanes: 4 and 1 kept for interactive work \(one batch_decode step/);
    expect(pool.getSnapshot().engines[0]).toMatchObject({ concurrency: 5 });
    // Four background tasks take the four lanes asked for; the ghost-text job takes the one kept for it.
    const results = await Promise.all(
      ['aa', 'bb', 'cc', 'dd', 'ee'].map((c, i) =>
        pool.submit({ task: `t${i}`, priority: i === 4 ? 'interactive' : 'normal', params: ask(c) }),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(['done', 'done', 'done', 'done', 'done']);
    expect(results.every((r) => r.text.length > 0)).toBe(true);
    expect(pool.getSnapshot().engines).toHaveLength(1);
    expect(fakes[0]!.forwards.some((f) => f.fn === 'batch_decode' && f.seqs.length === 5)).toBe(true);
  });

  it('lanes: 8 runs 8 items of one translation at once, not 7 and then 1', async () => {
    const { pool, fakes } = await poolOf(8, 1);
    expect(pool.getSnapshot().engines[0]).toMatchObject({ concurrency: 9 });
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) => pool.submit({ task: 'translate', params: { ...ask(`item ${i}`), max_tokens: 4 } })),
    );
    expect(results.map((r) => r.status)).toEqual(Array.from({ length: 8 }, () => 'done'));
    // One step carried all 8 (before the reserved lane became theirs too, 7 ran and the 8th waited for a whole item).
    expect(Math.max(...fakes[0]!.forwards.filter((f) => f.fn === 'batch_decode').map((f) => f.seqs.length))).toBe(8);
  });

  it("hostWebLLM's lanes option reaches the lanes: with share, jobs reading one document fork its lane", async () => {
    const doc = 'a long document that three jobs translate into other words';
    for (const share of [true, false]) {
      const fakes: Array<ReturnType<typeof fakeLanePipeline>> = [];
      const pipeline = () => {
        const fake = fakeLanePipeline();
        fakes.push(fake);
        return fake.pipeline;
      };
      const { createEngine } = fakeWebLLM({ pipeline, lanes: { share } }, { lanes: 4 });
      const pool = new EnginePool({ createEngine, size: 1 });
      pools.push(pool);
      await pool.load();
      const results = await Promise.all(
        ['one', 'two', 'six'].map((tail, i) => pool.submit({ task: `t${i}`, params: { ...ask(`${doc} ${tail}`), max_tokens: 3 } })),
      );
      expect(results.map((r) => r.status)).toEqual(['done', 'done', 'done']);
      expect(fakes).toHaveLength(1);
      expect(fakes[0]!.forks.length > 0).toBe(share);
    }
  });

  it('sends a JSON-schema job to WebLLM’s own path, and lanes: 1 keeps one generation at a time', async () => {
    const { pool, fakes } = await poolOf(2);
    const schema = { type: 'json_schema' as const, json_schema: { schema: { type: 'object' as const } } };
    const result = await pool.submit({ params: { ...ask('json please'), response_format: schema } });
    expect(result.status).toBe('done');
    expect(fakes[0]!.forwards).toHaveLength(0);
    const one = await poolOf(1);
    expect(one.log.at(-1)).toMatch(/Lanes: off, one lane asked \(lanes: 1\); one generation at a time\.$/);
    expect(one.pool.getSnapshot().engines[0]).toMatchObject({ concurrency: 1 });
  });

  it('runs JSON-schema jobs on the lanes where xgrammar loads: two at once on one engine, each object valid', async () => {
    const fakes: Array<ReturnType<typeof fakeLanePipeline>> = [];
    const pipeline = () => {
      const fake = fakeLanePipeline({ alphabet: JSON_ALPHABET });
      fakes.push(fake);
      return fake.pipeline;
    };
    const { createEngine } = fakeWebLLM({ pipeline, xgrammar: nodeXGrammar }, { lanes: 4 });
    const pool = new EnginePool({ createEngine, size: 2 });
    pools.push(pool);
    const log: string[] = [];
    await pool.load((p) => log.push(p.text));
    expect(log.at(-1)).toMatch(/JSON-schema jobs on the lanes, an xgrammar matcher per row\)\.$/);
    const schema = {
      type: 'json_schema' as const,
      json_schema: { schema: { type: 'object' as const, properties: { ok: { type: 'boolean' as const } }, required: ['ok'] } },
    };
    const results = await Promise.all(
      ['a', 'b'].map((task) => pool.submit({ task, params: { ...ask(`json ${task}`), max_tokens: 40, response_format: schema } })),
    );
    expect(results.map((r) => r.status)).toEqual(['done', 'done']);
    for (const r of results) expect(typeof (JSON.parse(r.text) as { ok: unknown }).ok).toBe('boolean');
    // One engine, both on its lanes in the same steps (before, the second waited for a second engine).
    expect(pool.getSnapshot().engines).toHaveLength(1);
    expect(fakes[0]!.forwards.some((f) => f.fn === 'batch_decode' && f.seqs.length === 2)).toBe(true);
    // A schema the lanes cannot use fails that job alone, typed across the worker boundary; its neighbour finishes.
    const bad = { type: 'json_schema' as const, json_schema: { schema: { type: 'strnig' } as never } };
    const [failed, fine] = await Promise.all([
      pool.submit({ task: 'bad', params: { ...ask('json bad'), max_tokens: 40, response_format: bad } }),
      pool.submit({ task: 'fine', params: { ...ask('json fine'), max_tokens: 40, response_format: schema } }),
    ]);
    expect(failed.status).toBe('error');
    expect(failed.error).toBeInstanceOf(InvalidSchemaError);
    expect(fine.status).toBe('done');
    expect(typeof (JSON.parse(fine.text) as { ok: unknown }).ok).toBe('boolean');
  });

  it('a second JSON-schema job loads a second engine instead of waiting on a lane for WebLLM’s one-sequence path', async () => {
    const { pool } = await poolOf(4);
    const schema = { type: 'json_schema' as const, json_schema: { schema: { type: 'object' as const } } };
    expect(pool.getSnapshot().engines).toHaveLength(1);
    const results = await Promise.all(
      ['a', 'b'].map((task) => pool.submit({ task, params: { ...ask('json please'), response_format: schema } })),
    );
    expect(results.map((r) => r.status)).toEqual(['done', 'done']);
    // The second waited for a second engine, not on a lane of the first: WebLLM runs one such job at a time.
    expect(pool.getSnapshot().engines).toHaveLength(2);
    expect(results[1]!.startedAt!).toBeGreaterThan(results[0]!.startedAt!);
  });

  it('tells the worker each job’s band, so its lanes prefill a keystroke’s prompt first', async () => {
    const { pool, workers } = await poolOf(4);
    await Promise.all([
      pool.submit({ task: 'page', params: ask('item') }),
      pool.submit({ session: 'editor', priority: 'interactive', params: ask('ghost') }),
    ]);
    const chats = workers[0]!.received.filter((m) => 't' in m && m.t === 'call' && m.op === 'chat');
    expect(chats.map((m) => (m as { input: { priority?: string } }).input.priority)).toEqual(['normal', 'interactive']);
  });

  it('a keystroke that reaches the worker during a step is prefilled before a translation item sent just before it', async () => {
    const { pool, fakes, workers } = await poolOf(4);
    const fake = fakes[0]!;
    const late: Array<Promise<unknown>> = [];
    let open: (() => void) | undefined;
    let started = 0;
    const background = pool.submit({
      task: 'bg',
      params: { ...ask('background'), max_tokens: 30 },
      onChunk: () => {
        if (open) return;
        // The batch's next step is in flight while both requests cross to the worker.
        open = fake.hold();
        started = fake.forwards.length;
        late.push(pool.submit({ task: 'page', params: ask('the next item of the translation, a longer prompt') }));
        late.push(pool.submit({ session: 'editor', priority: 'interactive', params: ask('ghost') }));
      },
    });
    await until(() => workers[0]!.received.filter((m) => 't' in m && m.t === 'pull').length >= 4);
    await new Promise((r) => setTimeout(r, 20));
    open!();
    await Promise.all([background, ...late]);
    const prefills = fake.forwards.slice(started).filter((f) => f.fn === 'prefill');
    const ghostSeq = prefills[0]!.seqs[0];
    const seqs = prefills.map((f) => f.seqs[0]);
    // The keystroke's prefill chunks all come before the translation item's.
    expect(seqs.lastIndexOf(ghostSeq)).toBeLessThan(seqs.findIndex((seq) => seq !== ghostSeq));
    expect(prefills.filter((f) => f.seqs[0] === ghostSeq).reduce((n, f) => n + f.lengths[0]!, 0)).toBeLessThan(
      prefills.filter((f) => f.seqs[0] !== ghostSeq).reduce((n, f) => n + f.lengths[0]!, 0),
    );
  });

  it('a cancelled job frees its lane and leaves the other jobs’ text as it is alone', async () => {
    const solo = await poolOf(2);
    const expected = await solo.pool.submit({ params: ask('keep going') });
    // Two lanes: one for each task (and one more kept for interactive work).
    const { pool, fakes } = await poolOf(2);
    const controller = new AbortController();
    let forwardsAtCancel = 0;
    const [cut, kept] = await Promise.all([
      pool.submit({
        task: 'a',
        params: { ...ask('cut me'), max_tokens: 30 },
        signal: controller.signal,
        onChunk: () => {
          forwardsAtCancel ||= fakes[0]!.forwards.length;
          controller.abort();
        },
      }),
      pool.submit({ task: 'b', params: ask('keep going') }),
    ]);
    expect(cut.status).toBe('cancelled');
    expect(kept.text).toBe(expected.text);
    // The cancelled job's lane takes no step after a cancel from its chunk callback.
    await new Promise((r) => setTimeout(r, 50));
    const { forwards } = fakes[0]!;
    const victim = forwards[0]!.seqs[0]!;
    expect(forwards.slice(forwardsAtCancel).filter((f) => f.seqs.includes(victim))).toEqual([]);
  });
});
