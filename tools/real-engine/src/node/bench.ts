/**
 * Real-engine figures in Node on Dawn's WebGPU, each engine on its own worker
 * thread. Run it first after any change to `@inkling/webllm`. Every
 * repetition prints a line as it ends (a run cut short keeps what it did);
 * the last line is `RESULT {json}`.
 *
 * - decode: pool ÷ raw WebLLM, with an A/A control (two raw engines) in the
 *   same run, alternating (raw A, pool, raw H, raw B), and pool ÷ raw H, a
 *   raw engine with the kit's engine hooks (what the pool path costs);
 * - cancel: tokens generated after a cancel and the time to the engine's
 *   final chunk, from the chunk callback and from a timer;
 * - ghost: the default ghost-text prompt over a note typed at its end, with
 *   prefix reuse on and off and a raw WebLLM engine with the same hooks
 *   (WebLLM's own worker protocol: what the kit's path costs) in rotating
 *   order (pools of one), then idle on a pool of two, under a translation on
 *   the other engine, and preempting a translation on a pool of one; each
 *   point says how long the job queued and WebLLM's own time to first token;
 * - scaling: pools of 1/2/4 (as many jobs as the largest pool at once),
 *   alternating, with a bootstrap interval of each ratio of medians.
 *
 * Every run carries the GPU's mean SM clock while it ran (`gpuClock.ts`,
 * from nvidia-smi where there is one): the driver lowers it when the GPU
 * idles between kernels, which is what moves one engine's speed run to run.
 *
 * A benchmark, not a test. Environment:
 *   BENCH_DAWN, BENCH_LIBS (required), BENCH_MODELS   as before
 *   BENCH_PARTS        decode,cancel,ghost,scaling (default all)
 *   BENCH_TOKENS / BENCH_REPS           decode tokens (128) and repetitions (5)
 *   BENCH_CANCEL_REPS                   cancels per mode (20)
 *   BENCH_SCALE_REPS / _TOKENS / _SIZES scaling repetitions (10), tokens per job (48), pool sizes (1,2,4)
 *   BENCH_GHOST_NOTE / _PAUSES / _REPS  note size (8000), pauses per session (12), sessions per variant (2)
 *   BENCH_SMOKE=1      tiny counts, to check the harness on a CPU
 */
import { createRequire } from 'node:module';
import * as webllm from '@mlc-ai/web-llm';
import { type CreateEngine, EnginePool } from '@inkling/scheduler';
import { type GPULike, detectWebGPU, webllmEngines } from '@inkling/webllm';
import { makeNote, typingSession } from '../../../../bench/ghost-prefix/typingSession.js';
import { type ProbedChunk, probeEngines } from '../chunkProbe.js';
import { serve } from '../serve.js';
import { CHAT_MODEL, LIBS, syntheticAppConfig } from '../setup.js';
import { writeSyntheticModel } from '../syntheticModel.js';
import {
  CANCEL_REPS,
  GHOST_NOTE,
  GHOST_PAUSES,
  GHOST_REPS,
  LONG_PROMPT,
  PARTS,
  REPS,
  SCALE_REPS,
  SCALE_SIZES,
  SCALE_TOKENS,
  TOKENS,
  bootstrapRatio,
  dawn,
  env,
  f,
  libs,
  median,
  models,
  out,
  range,
  say,
  threadEntry,
} from './benchConfig.js';
import {
  type GhostPoint,
  type Run,
  cancelRun,
  cpuCores,
  ghostSession,
  poolRun,
  rawGhostSession,
  rawRun,
  startTranslation,
  throughput,
} from './benchRuns.js';
import { type ClockWindow, correlation, sampleGpuClock } from './gpuClock.js';
import { NodeWorker } from './nodeWorker.js';

const LABEL = env.BENCH_LABEL ?? 'this checkout';
const clock = sampleGpuClock();
const mhz = (w: ClockWindow) => `${f(w.mhz, 0)} MHz`;
/** Runs `fn`, and reads the GPU clock over the time it took. */
async function clocked<T>(fn: () => Promise<T>): Promise<[T, ClockWindow]> {
  const from = performance.now();
  const value = await fn();
  return [value, clock.window(from, performance.now())];
}
const dec = (xs: Run[]) => xs.map((r) => r.decodeTps);

async function main(): Promise<void> {
  const setup = await setUp();
  say(`code under test: ${LABEL}; wall clock ${(Date.now() / 1000).toFixed(1)} s since the epoch (to line up with device samples)`);
  out.label = LABEL;
  if (PARTS.has('decode')) await decodeComparison(setup);
  if (PARTS.has('cancel')) await cancelTimes(setup.engines);
  if (PARTS.has('ghost')) await ghostText(setup);
  if (PARTS.has('scaling')) await scaling(setup.engines);
  clock.stop();
  setup.server.close();
  console.log(`RESULT ${JSON.stringify(out)}`);
}

async function setUp() {
  say('generating the synthetic model (random weights) if missing');
  await writeSyntheticModel({ libPath: `${libs}/${LIBS.chat}`, dir: `${models}/${CHAT_MODEL}`, tokenizer: 'qwen', fill: 'random' });
  const { server, base } = await serve({ '/libs/': libs, '/models/': models });
  const appConfig = syntheticAppConfig(base, false);
  // The default ghost prompt over an 8,000-character note is ~500 tokens, plus the reply.
  for (const model of appConfig.model_list) model.overrides = { ...model.overrides, context_window_size: 2048 };
  const workerData = { dawn, origin: base, toggles: env.BENCH_DAWN_TOGGLES?.split(',').filter(Boolean) };
  const dawnModule = createRequire(import.meta.url)(dawn) as { create: (flags: string[]) => GPULike; globals: object };
  Object.assign(globalThis, dawnModule.globals);
  const gpu = dawnModule.create([]);
  const support = await detectWebGPU({ gpu });
  out.adapter = support.adapter;
  say(`adapter: ${JSON.stringify(support.adapter)} shader-f16 ${support.shaderF16}`);
  if (!support.supported) throw new Error(support.reason ?? 'no adapter');
  const make = (prefixReuse: boolean) =>
    webllmEngines({ model: CHAT_MODEL, appConfig, gpu, worker: () => new NodeWorker(threadEntry, workerData), prefixReuse } as never);
  const raw = (protocol: 'webllm' | 'webllm-reuse' = 'webllm') =>
    new webllm.WebWorkerMLCEngine(new NodeWorker(threadEntry, { ...workerData, protocol }) as never, {
      appConfig: appConfig as never,
    });
  return { server, engines: make(true), enginesNoReuse: make(false), raw, appConfig };
}

/** A pool of `size`, grown to all its engines (a job of another task waiting on a busy pool grows it). */
async function fullPool(createEngine: CreateEngine, size: number, options: { resumeDelayMs?: number } = {}): Promise<EnginePool> {
  const pool = new EnginePool({ createEngine, size, idleTimeoutMs: 60 * 60_000, ...options });
  const start = performance.now();
  const logs: string[] = [];
  await pool.load((p) => {
    if (/Prefix reuse/.test(p.text ?? '') && !logs.includes(p.text ?? '')) logs.push(p.text ?? '');
  });
  const burst = () =>
    Promise.all(
      Array.from({ length: size }, (_, i) =>
        pool.submit({ task: `warm${i}`, params: { messages: [{ role: 'user' as const, content: 'warm' }], max_tokens: 2 } }),
      ),
    );
  while (pool.getSnapshot().engines.length < size || pool.getSnapshot().growing) {
    await burst();
    await new Promise((r) => setTimeout(r, 50));
  }
  await burst();
  say(`pool of ${size} up in ${f((performance.now() - start) / 1000)} s${logs.length ? ` (load log: ${logs.join(' | ')})` : ''}`);
  return pool;
}

/**
 * Raw A, pool, raw H, raw B, alternating: pool ÷ raw A (what the kit gives over
 * WebLLM as it is) beside raw B ÷ raw A (the A/A noise), and pool ÷ raw H, a
 * raw engine with the kit's engine hooks (prefix reuse, the one-pass greedy
 * pick): what the pool and its page↔worker path cost apart from those.
 */
async function decodeComparison({ raw, engines }: Awaited<ReturnType<typeof setUp>>): Promise<void> {
  let start = performance.now();
  const rawA = raw();
  const rawB = raw();
  const rawH = raw('webllm-reuse');
  await Promise.all([rawA.reload(CHAT_MODEL), rawB.reload(CHAT_MODEL), rawH.reload(CHAT_MODEL)]);
  say(`raw engines A, B and H (with the kit's hooks) loaded in ${f((performance.now() - start) / 1000)} s`);
  start = performance.now();
  const pool = await fullPool(engines, 1);
  await rawRun(rawA);
  await rawRun(rawB);
  await rawRun(rawH);
  await poolRun(pool);
  const runs: Record<'a' | 'b' | 'h' | 'p', Run[]> = { a: [], b: [], h: [], p: [] };
  const { a, b, h, p } = runs;
  const clocks: Record<'a' | 'b' | 'h' | 'p', ClockWindow[]> = { a: [], b: [], h: [], p: [] };
  for (let i = 0; i < REPS; i += 1) {
    const order = i % 2 === 0 ? (['a', 'p', 'h', 'b'] as const) : (['b', 'h', 'p', 'a'] as const);
    for (const which of order) {
      const engine = ({ a: rawA, b: rawB, h: rawH } as const)[which as 'a'];
      const [run, window] = await clocked(() => (which === 'p' ? poolRun(pool) : rawRun(engine)));
      runs[which].push(run);
      clocks[which].push(window);
    }
    say(
      `decode rep ${i}: raw A ${f(a.at(-1)!.decodeTps)}, pool ${f(p.at(-1)!.decodeTps)}, raw H ${f(h.at(-1)!.decodeTps)}, raw B ${f(b.at(-1)!.decodeTps)} tok/s (WebLLM's figure; at the caller ${f(a.at(-1)!.wallTps)} / ${f(p.at(-1)!.wallTps)} / ${f(h.at(-1)!.wallTps)} / ${f(b.at(-1)!.wallTps)}); GPU at ${mhz(clocks.a.at(-1)!)} / ${mhz(clocks.p.at(-1)!)} / ${mhz(clocks.h.at(-1)!)} / ${mhz(clocks.b.at(-1)!)}`,
    );
  }
  const all = [...a, ...b].map((r) => r.decodeTps);
  const allMhz = [...clocks.a, ...clocks.b].map((w) => w.mhz);
  say(
    `  raw WebLLM's decode against the GPU clock over ${all.length} runs: ${f(Math.min(...all))}–${f(Math.max(...all))} tok/s at ${f(Math.min(...allMhz), 0)}–${f(Math.max(...allMhz), 0)} MHz, correlation ${f(correlation(allMhz, all), 2)}`,
  );
  const poolRatio = p.map((r, i) => r.decodeTps / a[i]!.decodeTps);
  const hooksRatio = p.map((r, i) => r.decodeTps / h[i]!.decodeTps);
  const aa = b.map((r, i) => r.decodeTps / a[i]!.decodeTps);
  out.decode = {
    a,
    b,
    h,
    p,
    clocks,
    poolRatio,
    hooksRatio,
    aa,
    medianPool: median(poolRatio),
    medianPoolVsHooks: median(hooksRatio),
    medianAA: median(aa),
    clockCorrelation: correlation(allMhz, all),
  };
  say(
    `decode, ${TOKENS} tokens after a ${LONG_PROMPT.split(' ').length}-word prompt, ${REPS} reps: raw A ${f(median(dec(a)))} (${range(dec(a))}), pool ${f(median(dec(p)))} (${range(dec(p))}), raw H ${f(median(dec(h)))} (${range(dec(h))}), raw B ${f(median(dec(b)))} (${range(dec(b))}) tok/s`,
  );
  say(
    `  pool ÷ raw A per rep ${poolRatio.map((x) => f(x, 3)).join(', ')} (median ${f(median(poolRatio), 3)}); A/A raw B ÷ raw A ${aa.map((x) => f(x, 3)).join(', ')} (median ${f(median(aa), 3)}); pool ÷ raw H ${hooksRatio.map((x) => f(x, 3)).join(', ')} (median ${f(median(hooksRatio), 3)})`,
  );
  await Promise.all([rawA.unload(), rawB.unload(), rawH.unload(), pool.unload()]);
}

/** From onChunk a cancel lands between two decode steps; from a timer, anywhere in a step, as a keystroke does. */
async function cancelTimes(engines: CreateEngine): Promise<void> {
  const probe = probeEngines(engines);
  const pool = await fullPool(probe.createEngine, 1);
  const streams: ProbedChunk[][] = probe.streams;
  for (const mode of ['on-chunk', 'timer'] as const) {
    const cancels: Array<{ ms: number; after: number; delay: number }> = [];
    for (let i = 0; i < CANCEL_REPS; i += 1) {
      const c = await cancelRun(pool, streams, mode, i);
      cancels.push(c);
      say(
        `cancel (${mode}) rep ${i}: ${c.after} tokens after the cancel, final chunk ${f(c.ms, 1)} ms later${mode === 'timer' ? ` (timer +${c.delay} ms)` : ''}`,
      );
    }
    out[`cancel-${mode}`] = cancels;
    const tokens = cancels.map((c) => c.after);
    say(
      `cancel (${mode}): tokens after ${JSON.stringify(histogram(tokens))} of ${cancels.length}; final chunk median ${f(median(cancels.map((c) => c.ms)), 1)} ms (${range(cancels.map((c) => c.ms))})`,
    );
  }
  await pool.unload();
}

function histogram(xs: number[]): Record<string, number> {
  const h: Record<string, number> = {};
  for (const x of xs) h[String(x)] = (h[String(x)] ?? 0) + 1;
  return h;
}

const warm = (points: GhostPoint[]) => points.slice(1);
const ghostLine = (name: string, points: GhostPoint[], window?: ClockWindow) => {
  const w = warm(points);
  return `${name}${window ? ` [GPU at ${mhz(window)}]` : ''}: first token ms ${w.map((p) => f(p.ms, 0)).join(',')}; of which queued ${f(median(w.map((p) => p.queueMs)), 1)}, in WebLLM ${f(median(w.map((p) => p.engineMs)), 1)} (medians); prefilled ${w.map((p) => p.prefilled).join(',')} (prompt ${median(w.map((p) => p.prompt))}); median ${f(median(w.map((p) => p.ms)), 1)} ms, ${f(median(w.map((p) => p.prefilled)), 0)} prefilled (mean ${f(w.reduce((s, p) => s + p.prefilled, 0) / Math.max(1, w.length), 1)})`;
};

/** Ghost text with the default prompt over a note typed at its end. The first (cold) pause of each session is left out. */
async function ghostText({ engines, enginesNoReuse, raw }: Awaited<ReturnType<typeof setUp>>): Promise<void> {
  const sessions = Array.from({ length: GHOST_REPS }, (_, rep) =>
    typingSession(makeNote(GHOST_NOTE, rep + 1), GHOST_PAUSES + 1, { seed: 100 + rep, editEvery: 0 }),
  );
  const result: Record<string, GhostPoint[][]> = { on: [], off: [], raw: [], pool2Idle: [], pool2Translation: [], pool1Preempting: [] };
  // Reuse on and off, each on a pool of one, and the raw engine with the same hooks, in rotating order.
  const on = await fullPool(engines, 1);
  const off = await fullPool(enginesNoReuse, 1);
  const rawEngine = raw('webllm-reuse');
  await rawEngine.reload(CHAT_MODEL);
  await rawGhostSession(rawEngine, sessions[0]!.slice(0, 2));
  const variants = ['on', 'off', 'raw'] as const;
  for (let rep = 0; rep < GHOST_REPS; rep += 1) {
    const order = variants.map((_, i) => variants[(i + rep) % variants.length]!);
    for (const variant of order) {
      const [points, window] = await clocked(() =>
        variant === 'raw'
          ? rawGhostSession(rawEngine, sessions[rep]!)
          : ghostSession(variant === 'on' ? on : off, sessions[rep]!, `ghost-${variant}-${rep}`),
      );
      result[variant]!.push(points);
      say(
        ghostLine(
          variant === 'raw' ? `ghost raw WebLLM + hooks rep ${rep} (idle)` : `ghost reuse ${variant} rep ${rep} (pool of 1, idle)`,
          points,
          window,
        ),
      );
    }
  }
  await rawEngine.unload();
  const outputs = result.on!.flatMap((s, r) => s.map((p, i) => p.text === result.off![r]![i]!.text));
  say(`ghost greedy outputs identical with and without reuse: ${outputs.filter(Boolean).length} of ${outputs.length}`);
  const rawSame = result.on!.flatMap((s, r) => s.map((p, i) => p.text === result.raw![r]![i]!.text));
  say(`ghost greedy outputs identical through the pool and on the raw engine: ${rawSame.filter(Boolean).length} of ${rawSame.length}`);
  await off.unload();
  // A pool of one preempting a translation: the ghost job interrupts it. With the pool's default
  // resumeDelayMs the preempted item waits while the person types; with 0 it restarts after every keystroke.
  const noWait = await fullPool(engines, 1, { resumeDelayMs: 0 });
  result.pool1PreemptingNoWait = [];
  for (let rep = 0; rep < GHOST_REPS; rep += 1) {
    const order = rep % 2 === 0 ? (['wait', 'no-wait'] as const) : (['no-wait', 'wait'] as const);
    for (const variant of order) {
      const pool = variant === 'wait' ? on : noWait;
      const translation = startTranslation(pool);
      await translation.running;
      const [points, window] = await clocked(() => ghostSession(pool, sessions[rep]!, `ghost-pre-${variant}-${rep}`));
      const statuses = await translation.stop();
      result[variant === 'wait' ? 'pool1Preempting' : 'pool1PreemptingNoWait']!.push(points);
      say(
        `${ghostLine(`ghost preempting on a pool of 1 (resumeDelayMs ${variant === 'wait' ? 'default' : '0'}) rep ${rep}`, points, window)}; first keystroke (a translation running) ${f(points[0]!.ms, 0)} ms, queued ${f(points[0]!.queueMs, 0)}; translation jobs ${JSON.stringify(histogram(statuses as unknown as number[]))}`,
      );
    }
  }
  await noWait.unload();
  await on.unload();
  // A pool of two: idle, then with a translation running on the other engine.
  const pool2 = await fullPool(engines, 2);
  for (let rep = 0; rep < GHOST_REPS; rep += 1) {
    const [idle, idleWindow] = await clocked(() => ghostSession(pool2, sessions[rep]!, `ghost-2-${rep}`));
    result.pool2Idle!.push(idle);
    say(ghostLine(`ghost idle on a pool of 2 rep ${rep}`, idle, idleWindow));
    const translation = startTranslation(pool2);
    await translation.running;
    const [busy, busyWindow] = await clocked(() => ghostSession(pool2, sessions[rep]!, `ghost-2t-${rep}`));
    const statuses = await translation.stop();
    result.pool2Translation!.push(busy);
    say(
      `${ghostLine(`ghost under a translation on the other engine rep ${rep}`, busy, busyWindow)}; engines ${[...new Set(busy.map((p) => p.engine))].join(',')}; translation jobs ${JSON.stringify(histogram(statuses as unknown as number[]))}`,
    );
  }
  await pool2.unload();
  const med = (key: string) => median(result[key]!.flatMap(warm).map((p) => p.ms));
  const pre = (key: string) => median(result[key]!.flatMap(warm).map((p) => p.prefilled));
  const meanPre = (key: string) => {
    const xs = result[key]!.flatMap(warm).map((p) => p.prefilled);
    return xs.reduce((s, x) => s + x, 0) / Math.max(1, xs.length);
  };
  const summary = Object.fromEntries(
    Object.keys(result).map((k) => [
      k,
      {
        firstTokenMs: med(k),
        engineMs: median(result[k]!.flatMap(warm).map((p) => p.engineMs)),
        queueMs: median(result[k]!.flatMap(warm).map((p) => p.queueMs)),
        prefilled: pre(k),
        meanPrefilled: meanPre(k),
      },
    ]),
  );
  out.ghost = {
    note: GHOST_NOTE,
    pauses: GHOST_PAUSES,
    reps: GHOST_REPS,
    summary,
    sessions: result,
    outputsIdentical: outputs.filter(Boolean).length,
    outputsOf: outputs.length,
  };
  say(`ghost summary (median first token ms [in WebLLM, queued] / median prefilled / mean prefilled):`);
  for (const [k, v] of Object.entries(summary))
    say(`  ${k}: ${f(v.firstTokenMs, 1)} ms [${f(v.engineMs, 1)}, ${f(v.queueMs, 1)}] / ${f(v.prefilled, 0)} / ${f(v.meanPrefilled, 1)}`);
  say(
    `  pool (reuse on) ÷ raw WebLLM with the same hooks ${f(summary.on!.firstTokenMs / summary.raw!.firstTokenMs, 3)}; reuse on ÷ off first token ${f(summary.on!.firstTokenMs / summary.off!.firstTokenMs, 3)}; prefilled mean on ÷ off ${f(summary.on!.meanPrefilled / summary.off!.meanPrefilled, 4)}; under translation ÷ idle (pool of 2) ${f(summary.pool2Translation!.firstTokenMs / summary.pool2Idle!.firstTokenMs, 3)}; preempting (pool of 1) ÷ idle (pool of 1, reuse on) ${f(summary.pool1Preempting!.firstTokenMs / summary.on!.firstTokenMs, 3)} (resumeDelayMs 0: ${f(summary.pool1PreemptingNoWait!.firstTokenMs / summary.on!.firstTokenMs, 3)})`,
  );
}

/** Pools of 1/2/4 with as many jobs at once as the largest pool, alternating order. */
async function scaling(engines: CreateEngine): Promise<void> {
  const jobs = Math.max(...SCALE_SIZES);
  const pools = new Map<number, EnginePool>();
  for (const size of SCALE_SIZES) pools.set(size, await fullPool(engines, size));
  const tps = new Map<number, number[]>(SCALE_SIZES.map((s) => [s, []]));
  const cores = new Map<number, number[]>(SCALE_SIZES.map((s) => [s, []]));
  const clocks = new Map<number, number[]>(SCALE_SIZES.map((s) => [s, []]));
  for (const size of SCALE_SIZES) await throughput(pools.get(size)!, jobs, 4);
  for (let rep = 0; rep < SCALE_REPS; rep += 1) {
    const order = rep % 2 === 0 ? SCALE_SIZES : SCALE_SIZES.toReversed();
    for (const size of order) {
      const from = { cpu: process.cpuUsage(), at: performance.now() };
      tps.get(size)!.push(await throughput(pools.get(size)!, jobs, SCALE_TOKENS));
      cores.get(size)!.push(cpuCores(from));
      clocks.get(size)!.push(clock.window(from.at, performance.now()).mhz);
    }
    say(
      `scaling rep ${rep}: ${SCALE_SIZES.map((s) => `pool of ${s} ${f(tps.get(s)!.at(-1)!)} (${f(cores.get(s)!.at(-1)!, 1)} cores busy, GPU at ${f(clocks.get(s)!.at(-1)!, 0)} MHz)`).join(', ')} tok/s (${jobs} jobs x ${SCALE_TOKENS} tokens at once)`,
    );
  }
  const base = tps.get(SCALE_SIZES[0]!)!;
  const ratios = Object.fromEntries(
    SCALE_SIZES.slice(1).map((s) => [s, { median: median(tps.get(s)!) / median(base), interval: bootstrapRatio(base, tps.get(s)!) }]),
  );
  out.scaling = {
    jobs,
    tokens: SCALE_TOKENS,
    tps: Object.fromEntries(tps),
    cores: Object.fromEntries(cores),
    clocks: Object.fromEntries(clocks),
    ratios,
  };
  for (const s of SCALE_SIZES)
    say(
      `  pool of ${s}: median ${f(median(tps.get(s)!))} tok/s (${range(tps.get(s)!)}) over ${SCALE_REPS} reps; GPU at median ${f(median(clocks.get(s)!), 0)} MHz (${f(Math.min(...clocks.get(s)!), 0)}–${f(Math.max(...clocks.get(s)!), 0)}); tok/s against MHz correlation ${f(correlation(clocks.get(s)!, tps.get(s)!), 2)}`,
    );
  for (const [s, r] of Object.entries(ratios))
    say(`  ${s} ÷ ${SCALE_SIZES[0]}: ${f(r.median, 2)}x (95% bootstrap ${f(r.interval[0], 2)}–${f(r.interval[1], 2)})`);
  for (const pool of pools.values()) await pool.unload();
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error('bench failed:', error);
    console.log(`RESULT ${JSON.stringify({ ...out, error: String(error) })}`);
    process.exit(1);
  },
);
