import { type ChatCompletionChunk, EngineError, EngineLoadError, EnginePool, type LoadProgress } from '@inkling/scheduler';
import {
  LoadCancelledError,
  ModelFetchError,
  WasmMissingError,
  type WllamaEngine,
  WorkerCrashedError,
  wllamaEngines,
} from '@inkling/wllama';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { modelUrl, testEngines, wasmUrl } from './engines.js';
import { spyOnWorkers } from './workerSpy.js';

const PROMPT = [{ role: 'user' as const, content: 'Write a short note about the weather in the city today.' }];

const PROSE =
  'Thanks for the update on the project. I think we should move the meeting to next week, since the team is busy with the release. ' +
  'Could you send me the draft of the report before Friday? I want to review the numbers and check that the plan still makes sense.';

// Every Worker the page starts from here on is recorded; `started()` counts those of the running test.
const spy = spyOnWorkers();
afterAll(() => spy.restore());
let seen = 0;
beforeEach(() => {
  seen = spy.created;
});
const started = () => spy.created - seen;
const aliveStarted = () => spy.workers.slice(seen).filter((w) => spy.isAlive(w)).length;

async function collect(stream: AsyncIterable<ChatCompletionChunk>): Promise<ChatCompletionChunk[]> {
  const chunks: ChatCompletionChunk[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return chunks;
}

async function promptTokens(engine: WllamaEngine, content: string): Promise<number> {
  const chunks = await collect(
    await engine.chat.completions.create({ messages: [{ role: 'user', content }], max_tokens: 1, stream: true }),
  );
  return chunks.at(-1)?.usage?.prompt_tokens ?? Number.NaN;
}

const contentOf = (chunks: ChatCompletionChunk[]) => chunks.filter((c) => c.choices[0]?.delta.content).length;

describe('a wllama engine on the generated chat model', () => {
  // One engine for the whole block (a load is most of a test's time); unload() is tested last.
  let engine: WllamaEngine;
  const progress: LoadProgress[] = [];
  beforeAll(async () => {
    engine = (await testEngines()(0, (p) => progress.push(p))) as WllamaEngine;
  });
  afterAll(() => engine.unload());

  it('reports load progress in bytes that never goes back, ending at the file size', async () => {
    const size = Number((await fetch(modelUrl('chat'), { method: 'HEAD' })).headers.get('content-length'));
    const fractions = progress.map((p) => p.progress);
    expect(fractions).toEqual(fractions.toSorted((a, b) => a - b));
    expect(fractions.at(-1)).toBe(1);
    expect(progress.map((p) => p.loadedBytes)).toEqual(progress.map((p) => p.loadedBytes).toSorted((a, b) => Number(a) - Number(b)));
    expect(progress.at(-1)).toMatchObject({ phase: 'ready', loadedBytes: size, totalBytes: size });
    expect(progress.some((p) => p.phase === 'fetch' && p.progress > 0 && p.progress < 1)).toBe(true);
  });

  it('streams WebLLM-shaped chunks: content, one finish chunk, then usage', async () => {
    const chunks = await collect(await engine.chat.completions.create({ messages: PROMPT, max_tokens: 12, temperature: 0, stream: true }));
    const finishes = chunks.filter((c) => c.choices[0]?.finish_reason);
    expect(finishes.map((c) => c.choices[0]?.finish_reason)).toEqual(['length']);
    const usage = chunks.at(-1)?.usage;
    expect(chunks.at(-1)?.choices).toEqual([]);
    expect(usage?.completion_tokens).toBe(12);
    expect(contentOf(chunks)).toBe(12);
    expect(engine.embeddings).toBeUndefined();
  });

  it('reports usage.cachedTokens through the pool: a prompt whose prefix llama.cpp still holds is not read again', async () => {
    // The loaded engine, lent to a pool (never unloaded through it: the block's other tests use it).
    const pool = new EnginePool({ createEngine: async () => engine, size: 1, idleTimeoutMs: Number.POSITIVE_INFINITY });
    await pool.load();
    const ask = (content: string) =>
      pool.submit({ params: { messages: [{ role: 'user', content }], max_tokens: 2, temperature: 0 }, onChunk: () => {} });
    const first = await ask(`${PROSE} One`);
    const again = await ask(`${PROSE} Two`);
    const prompt = again.usage && 'prompt_tokens' in again.usage ? again.usage.prompt_tokens : 0;
    const cached = again.usage && 'cachedTokens' in again.usage ? again.usage.cachedTokens : undefined;
    expect(first.status).toBe('done');
    expect(cached).toBeGreaterThan(prompt / 2);
    expect(cached).toBeLessThan(prompt);
    expect(pool.getSnapshot().recent.find((r) => r.id === again.id)?.cachedTokens).toBe(cached);
  });

  it('reads English prose at about four characters a token (the vocabulary holds whole words)', async () => {
    const empty = await promptTokens(engine, '');
    const prose = await promptTokens(engine, PROSE);
    const charsPerToken = PROSE.length / (prose - empty);
    expect(charsPerToken).toBeGreaterThan(3.5);
    expect(charsPerToken).toBeLessThan(6);
  });

  it('interruptGenerate() ends the stream with an abort chunk within two tokens', async () => {
    const stream = await engine.chat.completions.create({ messages: PROMPT, max_tokens: 400, temperature: 0, stream: true });
    const chunks: ChatCompletionChunk[] = [];
    let after = -1;
    for await (const chunk of stream) {
      chunks.push(chunk);
      if (after >= 0 && chunk.choices[0]?.delta.content) after += 1;
      if (contentOf(chunks) === 5 && after < 0) {
        engine.interruptGenerate();
        after = 0;
      }
    }
    expect(chunks.at(-1)?.choices[0]?.finish_reason).toBe('abort');
    expect(after).toBeLessThanOrEqual(2);
    // The engine takes the next request at once.
    const next = await collect(await engine.chat.completions.create({ messages: PROMPT, max_tokens: 3, stream: true }));
    expect(contentOf(next)).toBe(3);
  });

  it("a call's signal stops that call; an aborted signal streams only the abort", async () => {
    const controller = new AbortController();
    const stream = await engine.chat.completions.create({ messages: PROMPT, max_tokens: 400, stream: true }, { signal: controller.signal });
    const chunks: ChatCompletionChunk[] = [];
    for await (const chunk of stream) {
      chunks.push(chunk);
      if (contentOf(chunks) === 3) controller.abort();
    }
    expect(chunks.at(-1)?.choices[0]?.finish_reason).toBe('abort');
    expect(contentOf(chunks)).toBeLessThanOrEqual(5);
    const none = await collect(await engine.chat.completions.create({ messages: PROMPT, stream: true }, { signal: controller.signal }));
    expect(none.map((c) => c.choices[0]?.finish_reason)).toEqual(['abort']);
  });

  it('unload() terminates the worker, and later calls fail with an EngineError', async () => {
    expect(spy.alive).toBe(1);
    await engine.unload();
    expect(spy.alive).toBe(0);
    expect(spy.created).toBe(1);
    await expect(engine.chat.completions.create({ messages: PROMPT, stream: true })).rejects.toBeInstanceOf(EngineError);
  });
});

describe('embeddings', () => {
  it("come back with the model's width, one vector per input", async () => {
    const pool = new EnginePool({ createEngine: testEngines('embed'), size: 1 });
    await pool.load();
    const result = await pool.submit({ kind: 'embedding', params: { input: ['the cat sat', 'a dog ran home'] } });
    expect(result.status).toBe('done');
    expect(result.embeddings?.map((e) => e.embedding.length)).toEqual([128, 128]);
    expect(result.embeddings?.[0]?.embedding).not.toEqual(result.embeddings?.[1]?.embedding);
    await pool.unload();
    expect(spy.alive).toBe(0);
  });
});

describe('loading', () => {
  it('pool.unload() during a load cancels it and leaves no worker', async () => {
    const pool = new EnginePool({ createEngine: testEngines(), size: 1 });
    const fractions: number[] = [];
    const loading = pool.load((p) => fractions.push(p.progress));
    await new Promise((resolve) => setTimeout(resolve, 30));
    await pool.unload();
    await loading.catch(() => {});
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(aliveStarted()).toBe(0);
    expect(fractions.at(-1) ?? 0).toBeLessThan(1);
  });

  it('cancelling while llama.cpp reads the model rejects with LoadCancelledError and terminates its worker', async () => {
    const controller = new AbortController();
    const loading = testEngines()(
      0,
      (p) => {
        if (p.phase === 'load') controller.abort();
      },
      { signal: controller.signal },
    );
    await expect(loading).rejects.toBeInstanceOf(LoadCancelledError);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(spy.alive).toBe(0);
  });

  it('uses one thread on a page that is not cross-origin isolated, whatever "threads" asks', async () => {
    expect(globalThis.crossOriginIsolated).toBe(false);
    const engine = (await testEngines('chat', { threads: 2 })(0, () => {})) as WllamaEngine;
    expect(engine.threads).toBe(1);
    await engine.unload();
  });

  it('a model URL that fails is a ModelFetchError (an EngineLoadError) with its status', async () => {
    const pool = new EnginePool({ createEngine: wllamaEngines({ model: '/no-such-model.gguf', wasmUrl }), size: 1 });
    await pool.load().catch(() => {});
    const { phase, error } = pool.getSnapshot();
    expect(phase).toBe('error');
    expect(error).toBeInstanceOf(ModelFetchError);
    expect(error).toBeInstanceOf(EngineLoadError);
    expect((error as ModelFetchError).status).toBe(404);
    expect(started()).toBe(0);
  });

  it('a wasm URL with nothing there is a WasmMissingError', async () => {
    const load = wllamaEngines({ model: modelUrl('chat'), wasmUrl: '/missing/wllama.wasm' })(0, () => {});
    await expect(load).rejects.toBeInstanceOf(WasmMissingError);
    expect(started()).toBe(0);
  });
});

describe('a worker that dies', () => {
  it('fails its job with a fatal WorkerCrashedError; the pool builds a new engine and the next job runs', async () => {
    const pool = new EnginePool({ createEngine: testEngines(), size: 1 });
    await pool.load();
    const job = pool.submit({ params: { messages: PROMPT, max_tokens: 300 } });
    while ((pool.getSnapshot().jobs[0]?.tokens ?? 0) < 2) await new Promise((resolve) => setTimeout(resolve, 5));
    spy.workers[seen]!.dispatchEvent(new ErrorEvent('error', { message: 'RuntimeError: unreachable' }));
    const result = await job;
    expect(result.status).toBe('error');
    expect(result.error).toBeInstanceOf(WorkerCrashedError);
    const next = await pool.submit({ params: { messages: PROMPT, max_tokens: 4 } });
    expect(next.status).toBe('done');
    expect(started()).toBe(2);
    await pool.unload();
    expect(spy.alive).toBe(0);
  });
});
