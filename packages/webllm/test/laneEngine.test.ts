import type { ChatCompletionChunk, StreamingChatCompletionRequest } from '@inkling/scheduler';
import { describe, expect, it } from 'vitest';
import { type LaneStream, startLanes } from '../src/worker/laneEngine.js';
import { checkLanePipeline } from '../src/worker/lanePipeline.js';
import { lanePromptTokens } from '../src/worker/lanePrompt.js';
import { fakeLanePipeline, logitsOf, realPipelineMethods } from './fakeLanePipeline.js';

const ask = (content: string, more: Partial<StreamingChatCompletionRequest> = {}): StreamingChatCompletionRequest => ({
  messages: [{ role: 'user', content }],
  stream: true,
  stream_options: { include_usage: true },
  temperature: 0,
  max_tokens: 6,
  ...more,
});

/** Pulls a stream to its end as a page does: one chunk per pull; `onChunk` may act between pulls. */
async function read(stream: LaneStream, onChunk?: (chunk: ChatCompletionChunk, n: number) => void) {
  const chunks: ChatCompletionChunk[] = [];
  for (let step = await stream.next(); !step.done; step = await stream.next()) {
    chunks.push(step.value);
    onChunk?.(step.value, chunks.length);
  }
  const text = chunks.map((c) => c.choices[0]?.delta.content ?? '').join('');
  const finish = chunks.find((c) => c.choices[0]?.finish_reason)?.choices[0]?.finish_reason;
  const usage = chunks.find((c) => c.usage)?.usage;
  return { chunks, text, finish, usage };
}

/** Resolves once `ok()` holds, polling each macrotask (a second at most). */
async function until(ok: () => boolean) {
  for (let i = 0; i < 1000 && !ok(); i += 1) await new Promise((r) => setTimeout(r, 1));
  if (!ok()) throw new Error('timed out');
}

const repeats = (s: string) => s.length - new Set(s).size;

/** What one request gives decoded alone, on lanes of its own. */
async function alone(request: StreamingChatCompletionRequest) {
  const fake = fakeLanePipeline();
  const lanes = startLanes(fake.pipeline, 2);
  return read(lanes.open(request));
}

describe("the lanes' guard, on WebLLM's real source", () => {
  it("accepts WebLLM 0.2.79's pipeline, and the stand-in the other tests use has its shape", () => {
    const fake = fakeLanePipeline();
    expect(checkLanePipeline(fake.pipeline)).toBeUndefined();
    expect(startLanes(fake.pipeline, 4)).toMatchObject({ active: true, count: 4 });
  });

  it("reads WebLLM's own methods under the prefix-reuse hooks that replace them on the instance", () => {
    const fake = fakeLanePipeline();
    const real = realPipelineMethods('0.2.79');
    // As WebLLM's class: the methods on the prototype, then prefix reuse's wrapper set on the instance.
    const hooked = Object.assign(Object.create(real) as object, fake.pipeline, { embedAndForward: async () => 'hooked' });
    expect(checkLanePipeline(hooked)).toBeUndefined();
    expect(checkLanePipeline({ ...fake.pipeline, embedAndForward: async () => 'hooked' })).toMatch(/embedAndForward\(\) does not do/);
  });

  it('accepts WebLLM 0.2.86 with a single-sequence model ABI; refuses its batched ABI and artifact models', () => {
    const fake = fakeLanePipeline({ version: '0.2.86' });
    expect(checkLanePipeline(fake.pipeline)).toBeUndefined();
    expect(checkLanePipeline({ ...fake.pipeline, resolvedModelABI: { prefillABI: 'batch', decodeABI: 'single' } })).toMatch(
      /ABI is not the single-sequence one/,
    );
    expect(checkLanePipeline({ ...fake.pipeline, artifact: {} })).toMatch(/artifact models/);
  });

  it('refuses a pipeline that runs the model or builds the prompt some other way, and a library without batch_decode', () => {
    const fake = fakeLanePipeline();
    const real = realPipelineMethods('0.2.79');
    expect(checkLanePipeline({ ...fake.pipeline, embedAndForward: real.getInputData })).toMatch(/embedAndForward\(\) does not do/);
    expect(checkLanePipeline({ ...fake.pipeline, getInputData: real.embedAndForward })).toMatch(/getInputData\(\) does not do/);
    expect(checkLanePipeline({ ...fake.pipeline, slidingWindowSize: 1024 })).toMatch(/sliding window/);
    expect(checkLanePipeline({ ...fake.pipeline, prefillStep: real.getInputData })).toMatch(/does not build the prompt/);
    expect(checkLanePipeline(undefined)).toMatch(/keeps its pipeline elsewhere/);
    const none = startLanes(fakeLanePipeline({ noBatchDecode: true }).pipeline, 4);
    expect(none).toMatchObject({ active: false, count: 1 });
    expect(none.reason).toMatch(/no batch_decode/);
    expect(startLanes(fake.pipeline, 1).reason).toMatch(/one lane asked/);
  });

  it('builds the prompt as WebLLM does: system prefix, every message, the reply header', () => {
    const fake = fakeLanePipeline();
    const request = ask('hi', {
      messages: [
        { role: 'system', content: 'be brief' },
        { role: 'user', content: 'hi' },
      ],
    });
    const tokens = lanePromptTokens(fake.pipeline as never, request) as number[];
    expect(fake.pipeline.tokenizer.decode(Int32Array.from(tokens))).toBe('be brief|u:hi|a:');
    expect(lanePromptTokens(fake.pipeline as never, ask('x', { messages: [{ role: 'assistant', content: 'x' }] }))).toMatch(/last message/);
    expect(lanePromptTokens(fake.pipeline as never, { messages: [{ role: 'user', content: [{ type: 'image_url' }] as never }] })).toMatch(
      /not plain text/,
    );
  });
});

describe('lanes: several jobs on one copy of the weights', () => {
  it('decodes four jobs in one batch_decode per step, each with the tokens it gets alone', async () => {
    const prompts = ['the fox', 'a cat sat', 'dogs run far', 'hi'];
    const solo = await Promise.all(prompts.map((p) => alone(ask(p))));
    const fake = fakeLanePipeline();
    const lanes = startLanes(fake.pipeline, 4);
    const together = await Promise.all(prompts.map((p) => read(lanes.open(ask(p)))));
    expect(together.map((r) => r.text)).toEqual(solo.map((r) => r.text));
    expect(together.every((r) => r.finish === 'length')).toBe(true);
    expect(fake.forwards.some((f) => f.fn === 'batch_decode' && f.seqs.length === 4)).toBe(true);
    // One KV cache of four sequences, each as long as the context window.
    expect(fake.cacheArgs).toEqual([[4, 4 * 128, 8, 16, 0]]);
    expect(fake.scopes).toBe(0);
    expect(together[0]!.usage).toMatchObject({ completion_tokens: 6, cachedTokens: 0, extra: { lanes: 4 } });
  });

  it("prefills a new job before the batch's next step, alone", async () => {
    const fake = fakeLanePipeline();
    const lanes = startLanes(fake.pipeline, 4);
    let ghost: Promise<Awaited<ReturnType<typeof read>>> | undefined;
    let stepsBefore = 0;
    const batch = ['one long job', 'two long job', 'six long job'].map((p, i) =>
      read(lanes.open(ask(p, { max_tokens: 12 })), (_chunk, n) => {
        if (i === 0 && n === 4) {
          stepsBefore = fake.forwards.length;
          ghost = read(lanes.open(ask('ghost', { max_tokens: 2 })));
        }
      }),
    );
    await Promise.all(batch);
    await ghost;
    // The forward right after the keystroke arrived is the ghost's prefill, of its lane only.
    const next = fake.forwards.slice(stepsBefore).find((f) => f.fn === 'prefill')!;
    const index = fake.forwards.indexOf(next);
    expect(fake.forwards.slice(stepsBefore, index).filter((f) => f.fn === 'batch_decode').length).toBeLessThanOrEqual(1);
    expect(next.seqs).toHaveLength(1);
  });

  it("prefills a keystroke's prompt before another new job's that came first, and before the batch's next step", async () => {
    const fake = fakeLanePipeline();
    const lanes = startLanes(fake.pipeline, 4);
    let started = 0;
    const late: Array<Promise<unknown>> = [];
    const batch = ['one long job', 'two long job'].map((p, i) =>
      read(lanes.open(ask(p, { max_tokens: 12 })), (_chunk, n) => {
        if (i !== 0 || n !== 4) return;
        started = fake.forwards.length;
        // A translation item and then a keystroke, in the same turn.
        late.push(read(lanes.open(ask('the next item of the translation, a longer prompt', { max_tokens: 2 }))));
        late.push(read(lanes.open(ask('ghost', { max_tokens: 2 }), { urgent: true })));
      }),
    );
    await Promise.all(batch);
    await Promise.all(late);
    // Prefills come in chunks, one sequence at a time: the keystroke's whole prompt first.
    const prefills = fake.forwards.slice(started).filter((f) => f.fn === 'prefill');
    const ghostPrompt = lanePromptTokens(fake.pipeline as never, ask('ghost')) as number[];
    const firstSeq = prefills[0]!.seqs[0];
    const firstRun = prefills.slice(
      0,
      prefills.findIndex((f) => f.seqs[0] !== firstSeq),
    );
    expect(firstRun.reduce((n, f) => n + f.lengths[0]!, 0)).toBe(ghostPrompt.length);
    expect(prefills.slice(firstRun.length).every((f) => f.seqs[0] !== firstSeq)).toBe(true);
    // Nothing but the step in flight between the keystroke and its prefill.
    const upTo = fake.forwards.indexOf(prefills[0]!);
    expect(fake.forwards.slice(started, upTo).filter((f) => f.fn === 'batch_decode').length).toBeLessThanOrEqual(1);
  });

  it("a keystroke that arrives during a step's readback is prefilled at once, its first token before the step's", async () => {
    const fake = fakeLanePipeline();
    const lanes = startLanes(fake.pipeline, 4);
    const order: string[] = [];
    let release: (() => void) | undefined;
    let atHold = 0;
    const batch = ['one long job', 'two long job'].map((p, i) =>
      read(lanes.open(ask(p, { max_tokens: 10 })), (_chunk, n) => {
        order.push('batch');
        if (i !== 0 || n !== 3 || release) return;
        // From now on every readback waits (the next step's GPU work and its logits coming back).
        release = fake.hold();
        atHold = fake.forwards.length;
      }),
    );
    await until(() => fake.forwards.slice(atHold).some((f) => f.fn === 'batch_decode') && release !== undefined);
    const stepAt = fake.forwards.length;
    const before = order.length;
    const ghost = read(lanes.open(ask('g', { max_tokens: 2 }), { urgent: true }), () => order.push('ghost'));
    await until(() => fake.forwards.length > stepAt);
    // The step's readback is still held, and the keystroke's prefill is already encoded behind it.
    expect(fake.forwards.slice(stepAt).map((f) => f.fn)).toEqual(['prefill']);
    expect(order).toHaveLength(before);
    release!();
    const result = await ghost;
    await Promise.all(batch);
    expect(result.finish).toBe('length');
    expect(result.usage?.extra).toMatchObject({ lane_overlapped: 1, lane_busy_at_open: 2 });
    // Its first token went out before the held step's tokens.
    expect(order[before]).toBe('ghost');
  });

  it("a keystroke's prefill that fails during a step's readback fails that job alone", async () => {
    const expected = await alone(ask('one long job', { max_tokens: 10 }));
    const fake = fakeLanePipeline();
    const lanes = startLanes(fake.pipeline, 4);
    let release: (() => void) | undefined;
    let atHold = 0;
    const job = read(lanes.open(ask('one long job', { max_tokens: 10 })), (_chunk, n) => {
      if (n !== 3 || release) return;
      release = fake.hold();
      atHold = fake.forwards.length;
    });
    // The next step is encoded and its readback held.
    await until(() => release !== undefined && fake.forwards.length > atHold);
    fake.failNextForward();
    expect(fake.scopes).toBe(0);
    const ghost = read(lanes.open(ask('g', { max_tokens: 2 }), { urgent: true }));
    // It fails while the step's readback is still held: the prefill was taken there.
    await expect(ghost).rejects.toThrow('device lost');
    release!();
    expect((await job).text).toBe(expected.text);
  });

  it('the usage says how long a job waited for its prefill and how long the prefill took', async () => {
    const fake = fakeLanePipeline();
    const lanes = startLanes(fake.pipeline, 2);
    const { usage } = await read(lanes.open(ask('timed')));
    const extra = usage?.extra as Record<string, number>;
    expect(extra.lane_wait_s).toBeGreaterThanOrEqual(0);
    expect(extra.lane_prefill_s).toBeGreaterThanOrEqual(0);
    expect(extra.lane_wait_s! + extra.lane_prefill_s!).toBeCloseTo(extra.time_to_first_token_s!, 6);
    expect(extra).toMatchObject({ lane_overlapped: 0, lane_busy_at_open: 0 });
  });

  it('an interrupted lane is free for a waiting job before its page pulls again', async () => {
    const fake = fakeLanePipeline();
    const lanes = startLanes(fake.pipeline, 2);
    const a = lanes.open(ask('first', { max_tokens: 20 }));
    const b = lanes.open(ask('second', { max_tokens: 20 }));
    await Promise.all([a.next(), b.next()]);
    // a's page has not pulled again: its lane is handed to the keystroke all the same.
    a.interrupt();
    const ghost = read(lanes.open(ask('ghost', { max_tokens: 2 }), { urgent: true }));
    const result = await ghost;
    expect(result.finish).toBe('length');
    const rest = await read(a);
    expect(rest.finish).toBe('abort');
    await read(b);
  });

  it('a cancel from the chunk callback costs no step; the other lanes give what they give alone', async () => {
    const fake = fakeLanePipeline();
    const lanes = startLanes(fake.pipeline, 2);
    const other = ask('the other', { max_tokens: 8 });
    const expected = await alone(other);
    const victim = lanes.open(ask('the victim', { max_tokens: 8 }));
    let seqOfVictim = -1;
    let forwardsAtCancel = 0;
    const [cut, kept] = await Promise.all([
      read(victim, (_chunk, n) => {
        if (n === 2) {
          seqOfVictim = fake.forwards.find((f) => f.fn === 'prefill')!.seqs[0]!;
          forwardsAtCancel = fake.forwards.length;
          void victim.return();
        }
      }),
      read(lanes.open(other)),
    ]);
    expect(cut.chunks).toHaveLength(2);
    expect(fake.forwards.slice(forwardsAtCancel).some((f) => f.seqs.includes(seqOfVictim))).toBe(false);
    expect(kept.text).toBe(expected.text);
  });

  it('a cancel from a timer during a step costs at most that step, and sends nothing after', async () => {
    const fake = fakeLanePipeline();
    const lanes = startLanes(fake.pipeline, 2);
    const victim = lanes.open(ask('timer victim', { max_tokens: 20 }));
    const first = await victim.next();
    expect(first.done).toBe(false);
    const release = fake.hold();
    const pending = victim.next();
    await new Promise((r) => setTimeout(r, 0));
    const inFlight = fake.forwards.length;
    void victim.return();
    release();
    expect(await pending).toEqual({ done: true, value: undefined });
    await new Promise((r) => setTimeout(r, 0));
    expect(fake.forwards.length).toBe(inFlight);
  });

  it('interrupt ends the job at its next pull with abort and the usage', async () => {
    const fake = fakeLanePipeline();
    const lanes = startLanes(fake.pipeline, 2);
    const stream = lanes.open(ask('stop me', { max_tokens: 20 }));
    const result = await read(stream, (_c, n) => n === 2 && stream.interrupt());
    expect(result.finish).toBe('abort');
    expect(result.usage?.completion_tokens).toBeLessThanOrEqual(3);
  });
});

describe('lanes: prefix reuse per lane', () => {
  it("keeps each session's tokens in its lane: the next request prefills only its new tail", async () => {
    const fake = fakeLanePipeline();
    const lanes = startLanes(fake.pipeline, 2);
    const noteA = 'alpha note that is long';
    const noteB = 'bravo text quite unlike';
    await Promise.all([read(lanes.open(ask(noteA, { max_tokens: 2 }))), read(lanes.open(ask(noteB, { max_tokens: 2 })))]);
    const seqs = fake.forwards.filter((f) => f.fn === 'prefill').map((f) => f.seqs[0]);
    const before = fake.forwards.length;
    const [a, b] = await Promise.all([
      read(lanes.open(ask(`${noteA}x`, { max_tokens: 2 }))),
      read(lanes.open(ask(`${noteB}y`, { max_tokens: 2 }))),
    ]);
    const prompt = (lanePromptTokens(fake.pipeline as never, ask(`${noteA}x`)) as number[]).length;
    // Everything before the typed character came from the cache (it and the reply header after it are new).
    expect(a.usage?.cachedTokens).toBe(prompt - 4);
    expect(b.usage?.cachedTokens).toBeGreaterThan(20);
    const prefills = fake.forwards.slice(before).filter((f) => f.fn !== 'batch_decode' && f.lengths[0]! > 1);
    expect(prefills.every((f) => f.lengths[0]! <= 4)).toBe(true);
    // Each session found its own lane again.
    expect(new Set(seqs)).toEqual(new Set([0, 1]));
    // What each sequence holds is exactly its prompt and what it generated.
    const expected = alone(ask(`${noteA}x`, { max_tokens: 2 }));
    expect(a.text).toBe((await expected).text);
  });

  it("a document several jobs read is prefilled once: the others fork its lane's sequence and read their own tail", async () => {
    const doc = 'a long document that three jobs translate into other words';
    const asks = ['one', 'two', 'six'].map((tail) => ask(`${doc} ${tail}`, { max_tokens: 3 }));
    const fake = fakeLanePipeline();
    // share is on by default.
    const lanes = startLanes(fake.pipeline, 3);
    const texts = await Promise.all(asks.map((a) => read(lanes.open(a))));
    const prompt = (lanePromptTokens(fake.pipeline as never, asks[0]!) as number[]).length;
    expect(fake.forks).toHaveLength(2);
    expect(fake.forks.every((f) => f.parent === fake.forks[0]!.parent && f.at >= doc.length)).toBe(true);
    const prefilled = fake.forwards.filter((f) => f.fn === 'prefill').map((f) => f.lengths[0]!);
    // The first job reads its prompt in chunks of 8; the forked ones only what follows the document.
    expect(prefilled.reduce((a, b) => a + b, 0)).toBeLessThan(prompt + 2 * 8);
    expect(texts.slice(1).every((t) => t.usage!.cachedTokens! >= doc.length)).toBe(true);
    for (const [i, a] of asks.entries()) expect(texts[i]!.text).toBe((await alone(a)).text);
  });

  it('with share: false, or where the fork fails, each job reads its whole prompt and gets the same text', async () => {
    const doc = 'a long document that three jobs translate into other words';
    const asks = ['one', 'two'].map((tail) => ask(`${doc} ${tail}`, { max_tokens: 3 }));
    for (const [fork, share] of [
      ['works', false],
      ['throws', true],
      ['throws', undefined],
      ['missing', true],
    ] as const) {
      const fake = fakeLanePipeline({ fork });
      const lanes = startLanes(fake.pipeline, 2, { share });
      const texts = await Promise.all(asks.map((a) => read(lanes.open(a))));
      expect(fake.forks).toHaveLength(0);
      expect(texts.map((t) => t.usage?.cachedTokens)).toEqual([0, 0]);
      for (const [i, a] of asks.entries()) expect(texts[i]!.text).toBe((await alone(a)).text);
    }
  });

  it('without reuse every job reads its whole prompt', async () => {
    const fake = fakeLanePipeline();
    const lanes = startLanes(fake.pipeline, 2, { prefixReuse: false });
    await read(lanes.open(ask('same start here', { max_tokens: 2 })));
    const again = await read(lanes.open(ask('same start here!', { max_tokens: 2 })));
    expect(again.usage?.cachedTokens).toBe(0);
  });
});

describe('lanes: per-row sampling', () => {
  it('logit_bias, stop tokens, stop strings and max_tokens end each row as WebLLM would', async () => {
    const fake = fakeLanePipeline();
    const lanes = startLanes(fake.pipeline, 4);
    const [forced, stopToken, stopString, held] = await Promise.all([
      read(lanes.open(ask('x', { logit_bias: { 3: 100 }, max_tokens: 4 }))),
      read(lanes.open(ask('y', { logit_bias: { 0: 100 } }))),
      read(lanes.open(ask('z', { logit_bias: { 3: 100, 4: 95 }, stop: ['cd'], max_tokens: 10, presence_penalty: 20 } as never))),
      read(lanes.open(ask('v', { logit_bias: { 3: 100 }, stop: ['cx'], max_tokens: 3 }))),
    ]);
    const long = await read(lanes.open(ask('w', { max_tokens: 3 })));
    expect(forced).toMatchObject({ text: 'cccc', finish: 'length' });
    expect(stopToken).toMatchObject({ text: '', finish: 'stop' });
    // The stop string is not sent (its start, held back, neither).
    expect(stopString).toMatchObject({ text: '', finish: 'stop' });
    expect(stopString.chunks.every((c) => !c.choices[0]?.delta.content)).toBe(true);
    // A tail held back in case a stop string follows is sent when the job ends another way.
    expect(held).toMatchObject({ text: 'ccc', finish: 'length' });
    expect(long.usage).toMatchObject({ completion_tokens: 3 });
  });

  it('presence and frequency penalties change the greedy pick on the CPU row', async () => {
    const plain = await alone(ask('pen', { max_tokens: 12 }));
    const penalised = await alone(ask('pen', { max_tokens: 12, presence_penalty: 50 } as never));
    expect(repeats(penalised.text)).toBe(0);
    expect(repeats(plain.text)).toBeGreaterThan(0);
    expect(penalised.text).not.toBe(plain.text);
  });

  it('a seeded temperature draw gives the same tokens in a batch as alone', async () => {
    const request = ask('seeded', { temperature: 1.5, top_p: 0.9, seed: 7, max_tokens: 8 });
    const solo = await alone(request);
    const fake = fakeLanePipeline();
    const lanes = startLanes(fake.pipeline, 3);
    const [together] = await Promise.all([
      read(lanes.open(request)),
      read(lanes.open(ask('noise one'))),
      read(lanes.open(ask('noise two'))),
    ]);
    expect(together.text).toBe(solo.text);
  });

  it('leaves JSON-schema, tool and image requests to WebLLM, saying why', () => {
    const lanes = startLanes(fakeLanePipeline().pipeline, 2);
    const schema = { type: 'json_schema', json_schema: { schema: { type: 'object' } } } as const;
    expect(lanes.refuses(ask('x', { response_format: schema }))).toMatch(/JSON-schema/);
    expect(lanes.refuses(ask('x', { tools: [] } as never))).toBe('tools');
    expect(lanes.refuses(ask('x'))).toBeUndefined();
  });
});

describe('lanes: failures', () => {
  it('a failed step fails the jobs in it; the lane starts clean for the next job', async () => {
    const fake = fakeLanePipeline();
    const lanes = startLanes(fake.pipeline, 2);
    const first = lanes.open(ask('boom'));
    await first.next();
    fake.failNextForward();
    await expect(first.next()).rejects.toThrow('device lost');
    const after = await read(lanes.open(ask('boom again', { max_tokens: 2 })));
    expect(after.usage?.cachedTokens).toBe(0);
    // Whatever the sequence held before the failure is gone.
    const seq = fake.forwards.at(-1)!.seqs[0]!;
    const tokens = fake.kv.get(seq)!;
    expect(logitsOf(tokens)).toHaveLength(32);
    expect(tokens.length).toBe((lanePromptTokens(fake.pipeline as never, ask('boom again')) as number[]).length + 1);
  });
});
