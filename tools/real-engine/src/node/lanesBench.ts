/**
 * Lanes on a real GPU (issue #36): one WebLLM engine decoding several jobs in
 * one `batch_decode` step, through the pool, against one sequence and against
 * separate engines, in the same process, alternating. Every repetition prints
 * a line as it ends; the last line is `RESULT {json}`.
 *
 * - check: in this thread, one engine's lanes (`startLanes`) with rows of
 *   logits observed: 4 greedy jobs decoded together against each decoded
 *   alone (max |logit difference|, same text), and against WebLLM's own path;
 * - memory: nvidia-smi's used memory while 4 jobs run on one engine of lanes,
 *   and on a pool of 4 separate engines (each loaded alone);
 * - throughput: total content tokens/s of 1, 2, 4, 8 jobs at once on one
 *   engine of `lanes: 8`; 1 job on a one-lane engine (the denominator); 2 and 4
 *   jobs on pools of 2 and 4 one-lane engines (the seed's way);
 * - ghost: the default ghost-text prompt over an 8,000-character note typed
 *   at its end (prefix reuse on), on one engine of `lanes: 4`, idle and while 3
 *   translation jobs decode on its other lanes; then where its time went
 *   (the pool's queue, page <-> worker, the worker's wait, the prefill);
 *
 * `lanes: N` is the option as the code under test reads it: from round 7 on,
 * N jobs and one sequence more kept for interactive work; before, N sequences
 * of which the pool kept one for interactive work (8 jobs ran as 7, then 1).
 * - cancel: 0 tokens after a cancel from the chunk callback, at most 1 from a
 *   timer, while 3 other jobs decode; their text against their text alone.
 * - grammar (not in the default parts): JSON-schema jobs on the lanes, a
 *   matcher per row, beside plain jobs: valid objects, the same as alone and
 *   as WebLLM's own JSON path; 4 at once against 4 on the one-sequence path
 *   (`grammarPart.ts`).
 *
 * Environment: BENCH_DAWN, BENCH_LIBS, BENCH_MODELS as bench.ts;
 *   LANES_PARTS (check,pick,fork,memory,throughput,ghost,cancel; grammar), LANES_REPS (10),
 *   LANES_TOKENS (48), LANES_JOBS (1,2,4,8), LANES_GHOST_SESSIONS (4),
 *   LANES_CANCEL_REPS (10), BENCH_GHOST_NOTE (8000), BENCH_GHOST_PAUSES (12);
 *   LANES_TUNES (default): the lane settings throughput, ghost and cancel
 *   compare in one run, hostWebLLM's `lanes` option, e.g. `cpu,gpu+share`
 *   (`default`: none given; the first is the baseline, the others run
 *   alternating with it and are named in brackets); LANES_SEPARATE=0 leaves
 *   the pools of separate engines out of throughput.
 */
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { type CreateEngine, EnginePool } from '@inkling/scheduler';
import { type GPULike, type HostWebLLMOptions, webllmEngines } from '@inkling/webllm';
import { makeNote, typingSession } from '../../../../bench/ghost-prefix/typingSession.js';
import { startLanes } from '../../../../packages/webllm/src/worker/laneEngine.js';
import { pipelineOf } from '../../../../packages/webllm/src/worker/webllmPipeline.js';
import { type ProbedChunk, afterCancel, probeEngines } from '../chunkProbe.js';
import { serve } from '../serve.js';
import { CHAT_MODEL, LIBS, syntheticAppConfig } from '../setup.js';
import { writeSyntheticModel } from '../syntheticModel.js';
import {
  GHOST_NOTE,
  GHOST_PAUSES,
  LONG_PROMPT,
  dawn,
  env,
  f,
  libs,
  median,
  models,
  out,
  request,
  say,
  threadEntry,
} from './benchConfig.js';
import { type GhostPoint, ghostSession } from './benchRuns.js';
import { grammarPart } from './grammarPart.js';
import { sampleGpuClock } from './gpuClock.js';
import { installNodeHost } from './nodeHost.js';
import { NodeWorker } from './nodeWorker.js';

const PARTS = new Set((env.LANES_PARTS ?? 'check,pick,fork,memory,throughput,ghost,cancel').split(','));
const PICK_REPS = Number(env.LANES_PICK_REPS ?? 6);
const FORK_REPS = Number(env.LANES_FORK_REPS ?? 6);
const REPS = Number(env.LANES_REPS ?? 10);
const TOKENS = Number(env.LANES_TOKENS ?? 48);
const JOBS = (env.LANES_JOBS ?? '1,2,4,8').split(',').map(Number);
const GHOST_SESSIONS = Number(env.LANES_GHOST_SESSIONS ?? 4);
const CANCEL_REPS = Number(env.LANES_CANCEL_REPS ?? 10);
const MAX_JOBS = Math.max(...JOBS);
/** One lane setting under comparison: hostWebLLM's `lanes` option. */
interface Tune {
  name: string;
  lanes: HostWebLLMOptions['lanes'];
}
const TUNES: Tune[] = (env.LANES_TUNES ?? 'default').split(',').map((name) => {
  if (name === 'default') return { name, lanes: undefined };
  const words = name.split('+');
  const unknown = words.find((w) => !['cpu', 'gpu', 'share'].includes(w));
  if (unknown) throw new Error(`LANES_TUNES: "${unknown}" is not cpu, gpu or share`);
  return { name, lanes: { pick: words.includes('gpu') ? 'gpu' : 'cpu', share: words.includes('share') } };
});
/** A variant's name under tune `t`: as before for the baseline, the tune in brackets for the others. */
const tuned = (t: Tune, name: string) => (t === TUNES[0] ? name : `${name} [${t.name}]`);

const stats = (xs: number[]) => `${f(Math.min(...xs), 1)} / ${f(median(xs), 1)} / ${f(Math.max(...xs), 1)}`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** A plain greedy request (no bias): a random-weights model then writes varied tokens. */
const greedy = (content: string, max_tokens: number) => ({ messages: [{ role: 'user' as const, content }], max_tokens, temperature: 0 });
const words = ['the', 'quick', 'brown', 'fox', 'jumps', 'over', 'lazy', 'dog', 'and', 'then', 'a', 'cat'];
const promptOf = (seed: number, n = 60) =>
  Array.from({ length: n + 7 * seed }, (_, i) => words[(i * (seed + 1) + seed) % words.length]).join(' ');

function gpuMemoryMiB(): number {
  try {
    return Number(
      execFileSync('nvidia-smi', ['--query-gpu=memory.used', '--format=csv,noheader,nounits'], { encoding: 'utf8' }).trim().split('\n')[0],
    );
  } catch {
    return Number.NaN;
  }
}

say('generating the synthetic model (random weights) if missing');
await writeSyntheticModel({ libPath: `${libs}/${LIBS.chat}`, dir: `${models}/${CHAT_MODEL}`, tokenizer: 'qwen', fill: 'random' });
const { server, base } = await serve({ '/libs/': libs, '/models/': models });
const appConfig = syntheticAppConfig(base, false);
for (const model of appConfig.model_list) model.overrides = { ...model.overrides, context_window_size: 2048 };
const toggles = env.BENCH_DAWN_TOGGLES?.split(',').filter(Boolean);
const workerData = { dawn, origin: base, toggles };
const dawnModule = createRequire(import.meta.url)(dawn) as { create: (flags: string[]) => GPULike; globals: object };
Object.assign(globalThis, dawnModule.globals);
const gpu = dawnModule.create([]);
const engines = (lanes: number, tune: Tune = TUNES[0]!): CreateEngine =>
  webllmEngines({
    model: CHAT_MODEL,
    appConfig,
    gpu,
    worker: () => new NodeWorker(threadEntry, { ...workerData, lanes: tune.lanes }),
    lanes,
  } as never);
const clock = sampleGpuClock(100);
const loopDelay = monitorEventLoopDelay({ resolution: 1 });
loopDelay.enable();

/** A pool of `size` engines of `lanes` lanes, all loaded (a job of another task waiting on a busy pool grows it). */
async function pool(size: number, lanes: number, createEngine: CreateEngine = engines(lanes)): Promise<EnginePool> {
  const p = new EnginePool({ createEngine, size, idleTimeoutMs: 60 * 60_000 });
  const logs: string[] = [];
  await p.load((report) => {
    if (/Lanes/.test(report.text ?? '') && !logs.includes(report.text ?? '')) logs.push(report.text ?? '');
  });
  const burst = () =>
    Promise.all(
      Array.from({ length: size * lanes }, (_, i) =>
        p.submit({ task: `warm${i}`, params: { messages: [{ role: 'user' as const, content: 'warm' }], max_tokens: 2 } }),
      ),
    );
  while (p.getSnapshot().engines.length < size || p.getSnapshot().growing) {
    await burst();
    await sleep(50);
  }
  await burst();
  say(`pool of ${size} x ${lanes} lanes up (load log: ${logs.join(' | ')})`);
  return p;
}

/** What one throughput run saw besides its tokens/s: why a figure moved. */
interface RunDetail {
  tps: number;
  /** Mean SM clock (MHz) and GPU utilisation (%) over the run. */
  mhz: number;
  util: number;
  /** The engine's own figures (usage.extra), medians over the jobs. */
  engineDecode: number;
  ttftMs: number;
  cached: number;
  /** Content chunks seen against completion tokens counted by the engine. */
  chunks: number;
  completion: number;
  /** The page thread's worst event-loop delay during the run, ms. */
  loopMaxMs: number;
}

/** `jobs` jobs of different tasks at once: total content tokens per second. */
async function throughput(p: EnginePool, jobs: number): Promise<number> {
  return (await throughputDetail(p, jobs)).tps;
}

async function throughputDetail(p: EnginePool, jobs: number): Promise<RunDetail> {
  let tokens = 0;
  loopDelay.reset();
  const start = performance.now();
  const results = await Promise.all(
    Array.from({ length: jobs }, (_, i) =>
      p.submit({
        task: `t${i}`,
        params: request(`${i} ${LONG_PROMPT}`, TOKENS),
        onChunk: (chunk) => {
          if (chunk.choices[0]?.delta.content) tokens += 1;
        },
      }),
    ),
  );
  const end = performance.now();
  if (results.some((r) => r.status !== 'done'))
    throw new Error(`a throughput job ended ${results.find((r) => r.status !== 'done')?.status}`);
  const window = clock.window(start, end);
  const usage = results.map(
    (r) => r.usage as { completion_tokens?: number; cachedTokens?: number; extra?: Record<string, number> } | undefined,
  );
  return {
    tps: tokens / ((end - start) / 1000),
    mhz: window.mhz,
    util: window.util,
    engineDecode: median(usage.map((u) => Number(u?.extra?.decode_tokens_per_s))),
    ttftMs: median(usage.map((u) => Number(u?.extra?.time_to_first_token_s) * 1000)),
    cached: median(usage.map((u) => Number(u?.cachedTokens))),
    chunks: tokens,
    completion: usage.reduce((sum, u) => sum + Number(u?.completion_tokens ?? Number.NaN), 0),
    loopMaxMs: loopDelay.max / 1e6,
  };
}
const detail = (d: RunDetail) =>
  `${f(d.tps, 1)} [${f(d.mhz, 0)} MHz ${f(d.util, 0)}%, engine decode ${f(d.engineDecode, 1)} tok/s, ttft ${f(d.ttftMs, 0)} ms, cached ${f(d.cached, 0)}, chunks ${d.chunks}/${d.completion} tokens, loop max ${f(d.loopMaxMs, 0)} ms]`;

// ---- check: lanes against each sequence alone, in this thread ----
async function check(): Promise<void> {
  const { engine: loaded, pipeline } = await localEngine();
  const engine = loaded as unknown as { chat: { completions: { create(request: never): Promise<unknown> } } };
  const rows = new Map<string, Float32Array[]>();
  const lanes = startLanes(pipeline, 4, {
    model: CHAT_MODEL,
    prefixReuse: false,
    observe: (row, job) => rows.set(job, [...(rows.get(job) ?? []), row]),
  });
  if (!lanes.active) throw new Error(`lanes did not start: ${lanes.reason}`);
  const STEPS = 16;
  const asks = [0, 1, 2, 3].map((s) => ({ ...greedy(promptOf(s), STEPS), stream: true as const, stream_options: { include_usage: true } }));
  const run = async (ask: (typeof asks)[number]) => {
    const stream = lanes.open(ask);
    let text = '';
    let id = '';
    for (let step = await stream.next(); !step.done; step = await stream.next()) {
      id = step.value.id;
      text += step.value.choices[0]?.delta.content ?? '';
    }
    return { id, text };
  };
  const alone = [];
  for (const a of asks) alone.push(await run(a));
  const together = await Promise.all(asks.map(run));
  let maxDiff = 0;
  let maxAbs = 0;
  let compared = 0;
  for (const [i, a] of alone.entries()) {
    const x = rows.get(a.id) ?? [];
    const y = rows.get(together[i]!.id) ?? [];
    for (let k = 0; k < Math.min(x.length, y.length); k += 1) {
      compared += 1;
      for (let v = 0; v < x[k]!.length; v += 1) {
        maxDiff = Math.max(maxDiff, Math.abs(x[k]![v]! - y[k]![v]!));
        maxAbs = Math.max(maxAbs, Math.abs(x[k]![v]!));
      }
    }
  }
  const same = alone.filter((a, i) => a.text === together[i]!.text).length;
  // WebLLM's own path (its decode and its pick), same requests.
  const own: string[] = [];
  for (const a of asks) {
    const reply = (await engine.chat.completions.create({ ...greedy(a.messages[0]!.content, STEPS) } as never)) as {
      choices: Array<{ message: { content: string } }>;
    };
    own.push(reply.choices[0]?.message.content ?? '');
  }
  const sameAsWebLLM = alone.filter((a, i) => a.text === own[i]).length;
  say(
    `check: 4 greedy jobs x ${STEPS} tokens on lanes together vs each alone: max |logit difference| ${maxDiff.toExponential(2)} over ${compared} rows (logits up to ${f(maxAbs, 2)}); same text ${same} of 4; lanes alone vs WebLLM's own path: same text ${sameAsWebLLM} of 4; lengths ${alone.map((a) => a.text.length).join(',')}`,
  );
  out.check = { maxDiff, maxAbs, compared, same, sameAsWebLLM, alone: alone.map((a) => a.text), own };
  lanes.dispose();
}

/** One engine loaded in this thread (for the in-process parts). */
let local: { engine: { unload(): Promise<void> }; pipeline: unknown } | undefined;
async function localEngine() {
  if (local) return local;
  await installNodeHost({ dawn, origin: base, toggles });
  const webllm = await import('@mlc-ai/web-llm');
  const engine = new webllm.MLCEngine({ appConfig: appConfig as never });
  await engine.reload(CHAT_MODEL);
  local = { engine, pipeline: pipelineOf(engine, CHAT_MODEL) };
  return local;
}

/** Runs every request to its end on `lanes`, all at once; texts and content tokens/s. */
async function runAll(lanes: ReturnType<typeof startLanes>, asks: Array<Record<string, unknown>>) {
  const start = performance.now();
  let tokens = 0;
  const texts = await Promise.all(
    asks.map(async (ask) => {
      const stream = lanes.open({ ...ask, stream: true, stream_options: { include_usage: true } } as never);
      let text = '';
      for (let step = await stream.next(); !step.done; step = await stream.next()) {
        const piece = step.value.choices[0]?.delta.content ?? '';
        if (piece) tokens += 1;
        text += piece;
      }
      return text;
    }),
  );
  return { texts, tps: tokens / ((performance.now() - start) / 1000) };
}

// ---- pick: greedy rows picked on the GPU against the CPU pick, 8 jobs at once, one engine ----
async function pickAB(): Promise<void> {
  const { pipeline } = await localEngine();
  const B = MAX_JOBS;
  const gpuLanes = startLanes(pipeline, B, { model: CHAT_MODEL, prefixReuse: false, pick: 'gpu' });
  const cpuLanes = startLanes(pipeline, B, { model: CHAT_MODEL, prefixReuse: false, pick: 'cpu' });
  if (gpuLanes.greedyPick !== 'gpu') throw new Error('the GPU pick did not start');
  const plain = Array.from({ length: B }, (_, s) => greedy(promptOf(s), TOKENS));
  // Penalties and a bias: the shader's in-place adjustments against the CPU's.
  const adjusted = plain.map((a, s) => ({
    ...a,
    presence_penalty: 0.4,
    frequency_penalty: 0.3,
    repetition_penalty: 1.15,
    logit_bias: { [1000 + s]: 3, 15: -2 },
  }));
  const variants = [
    { name: 'cpu pick', lanes: cpuLanes },
    { name: 'gpu pick', lanes: gpuLanes },
    { name: 'cpu pick (A/A)', lanes: cpuLanes },
  ];
  const tps = new Map<string, number[]>(variants.map((v) => [v.name, []]));
  let same = 0;
  let compared = 0;
  for (const asks of [plain, adjusted]) {
    const a = await runAll(cpuLanes, asks);
    const b = await runAll(gpuLanes, asks);
    compared += asks.length;
    same += a.texts.filter((t, i) => t === b.texts[i]).length;
  }
  for (let rep = 0; rep < PICK_REPS; rep += 1) {
    const order = rep % 2 === 0 ? variants : variants.toReversed();
    const line: string[] = [];
    for (const v of order) {
      const x = (await runAll(v.lanes, plain)).tps;
      tps.get(v.name)!.push(x);
      line.push(`${v.name} ${f(x, 1)}`);
    }
    say(`pick rep ${rep}, ${B} greedy jobs x ${TOKENS} tokens: ${line.join(', ')} tok/s`);
  }
  const cpu = tps.get('cpu pick')!;
  const ratio = (name: string) => tps.get(name)!.map((x, i) => x / cpu[i]!);
  say(
    `pick at B = ${B}: cpu ${stats(cpu)}, gpu ${stats(tps.get('gpu pick')!)}, A/A cpu ${stats(tps.get('cpu pick (A/A)')!)} tok/s; gpu ÷ cpu per rep ${stats(ratio('gpu pick'))}; A/A ÷ cpu ${stats(ratio('cpu pick (A/A)'))}; same text gpu vs cpu ${same} of ${compared} (half with penalties and logit_bias)`,
  );
  out.pick = { tps: Object.fromEntries(tps), same, compared };
  gpuLanes.dispose();
  cpuLanes.dispose();
}

// ---- fork: a document's prefix shared by 3 lanes against 3 separate prefills ----
async function forkAB(): Promise<void> {
  const { pipeline } = await localEngine();
  const note = makeNote(3000, 7);
  const result: Record<string, { ms: number[]; pages: number[] }> = { shared: { ms: [], pages: [] }, separate: { ms: [], pages: [] } };
  let maxDiff = 0;
  let forkUsed = 0;
  for (let rep = 0; rep < FORK_REPS; rep += 1) {
    const rows: Record<string, Float32Array[]> = { shared: [], separate: [] };
    const order = rep % 2 === 0 ? (['shared', 'separate'] as const) : (['separate', 'shared'] as const);
    for (const mode of order) {
      const seen = new Map<string, Float32Array>();
      const lanes = startLanes(pipeline, 4, {
        model: CHAT_MODEL,
        share: mode === 'shared',
        observe: (row, job) => void (seen.has(job) ? undefined : seen.set(job, row)),
      });
      const free = lanes.freePages() ?? Number.NaN;
      const doc = `Document ${rep}:\n${note}`;
      const asks = ['Translate it into French.', 'Summarise it in one line.', 'List its names.'].map((q) => ({
        messages: [{ role: 'user' as const, content: `${doc}\n\n${q}` }],
        max_tokens: 1,
        temperature: 0,
      }));
      const start = performance.now();
      const usage: number[] = [];
      await Promise.all(
        asks.map(async (ask) => {
          const stream = lanes.open({ ...ask, stream: true, stream_options: { include_usage: true } });
          for (let step = await stream.next(); !step.done; step = await stream.next())
            if (step.value.usage) usage.push(Number(step.value.usage.cachedTokens ?? 0));
        }),
      );
      const ms = performance.now() - start;
      const used = free - (lanes.freePages() ?? Number.NaN);
      if (mode === 'shared' && usage.filter((u) => u > 0).length === 2) forkUsed += 1;
      result[mode]!.ms.push(ms);
      result[mode]!.pages.push(used);
      rows[mode] = [...seen.values()];
      say(
        `fork rep ${rep} ${mode}: 3 prompts of a ${note.length}-char document, all first tokens in ${f(ms, 1)} ms; KV pages used ${f(used, 0)}; cached tokens ${usage.join(',')}`,
      );
      lanes.dispose();
    }
    for (const [k, row] of rows.shared!.entries()) {
      const other = rows.separate![k];
      if (!other) continue;
      for (let v = 0; v < row.length; v += 1) maxDiff = Math.max(maxDiff, Math.abs(row[v]! - other[v]!));
    }
  }
  const ratio = result.shared!.ms.map((x, i) => x / result.separate!.ms[i]!);
  say(
    `fork: 3 jobs reading one document, shared ${stats(result.shared!.ms)} ms against separate ${stats(result.separate!.ms)} ms (shared ÷ separate per rep ${stats(ratio)}); KV pages ${stats(result.shared!.pages)} against ${stats(result.separate!.pages)}; forks used in ${forkUsed} of ${FORK_REPS}; first-token logits shared vs separate max |difference| ${maxDiff.toExponential(2)}`,
  );
  out.fork = { ...result, maxDiff, forkUsed };
}

// ---- memory at 4 jobs: one engine of lanes, and 4 separate engines ----
async function memoryAt4(): Promise<void> {
  const readings: Record<string, number> = {};
  for (const [name, size, lanes] of [
    ['lanes (1 engine x 4 lanes)', 1, 4],
    ['separate (4 engines x 1 lane)', 4, 1],
  ] as const) {
    const before = gpuMemoryMiB();
    const p = await pool(size, lanes);
    let peak = 0;
    const sampler = setInterval(() => (peak = Math.max(peak, gpuMemoryMiB())), 200);
    await throughput(p, 4);
    clearInterval(sampler);
    peak = Math.max(peak, gpuMemoryMiB());
    readings[name] = peak - before;
    say(`memory: ${name}: ${f(peak - before, 0)} MiB more than before it loaded (${f(before, 0)} -> ${f(peak, 0)} MiB)`);
    await p.unload();
    await sleep(1000);
  }
  out.memory = readings;
}

// ---- throughput: 1/2/4/8 jobs on lanes; one sequence; separate engines ----
async function scaling(): Promise<void> {
  const lanesPools = new Map<Tune, EnginePool>();
  for (const t of TUNES) lanesPools.set(t, await pool(1, MAX_JOBS, engines(MAX_JOBS, t)));
  const single = await pool(1, 1);
  const separate = new Map<number, EnginePool>();
  if (env.LANES_SEPARATE !== '0') for (const n of JOBS.filter((j) => j > 1 && j <= 4)) separate.set(n, await pool(n, 1));
  type V = { name: string; run: () => Promise<RunDetail> };
  const variants: V[] = [
    { name: 'one sequence, 1 job', run: () => throughputDetail(single, 1) },
    ...TUNES.flatMap((t) => JOBS.map((j) => ({ name: tuned(t, `lanes, ${j} jobs`), run: () => throughputDetail(lanesPools.get(t)!, j) }))),
    ...[...separate].map(([n, p]) => ({ name: `${n} separate engines, ${n} jobs`, run: () => throughputDetail(p, n) })),
    // The one-sequence path on a pool of 2 one-lane engines, 1 job: the same engine code as the
    // denominator on another pool instance (does the low figure follow the pool or the path?).
    ...(separate.has(2) ? [{ name: 'one sequence on the 2-engine pool, 1 job', run: () => throughputDetail(separate.get(2)!, 1) }] : []),
  ];
  const tps = new Map<string, number[]>(variants.map((v) => [v.name, []]));
  for (const v of variants) await v.run(); // warm
  for (let rep = 0; rep < REPS; rep += 1) {
    const order = rep % 2 === 0 ? variants : variants.toReversed();
    const line: string[] = [];
    for (const v of order) {
      const x = await v.run();
      tps.get(v.name)!.push(x.tps);
      line.push(`${v.name} ${detail(x)}`);
    }
    say(`throughput rep ${rep}: ${line.join('; ')} tok/s in total`);
  }
  const base1 = tps.get(variants[0]!.name)!;
  say(
    `throughput over ${REPS} reps, ${TOKENS} tokens a job (tok/s in total, min / median / max; ÷ one sequence per rep, min / median / max):`,
  );
  const summary: Record<string, unknown> = {};
  for (const v of variants) {
    const xs = tps.get(v.name)!;
    const ratio = xs.map((x, i) => x / base1[i]!);
    summary[v.name] = { tps: xs, ratio };
    say(`  ${v.name.padEnd(40)} ${stats(xs)}; ÷ one sequence ${f(Math.min(...ratio))} / ${f(median(ratio))} / ${f(Math.max(...ratio))}`);
  }
  out.throughput = summary;
  await Promise.all([...lanesPools.values(), single, ...separate.values()].map((p) => p.unload()));
}

// ---- ghost text on one engine of 4 lanes, idle and beside 3 translation jobs (each tune, sessions alternating) ----
async function ghost(): Promise<void> {
  const pools = new Map<Tune, EnginePool>();
  for (const t of TUNES) pools.set(t, await pool(1, 4, engines(4, t)));
  const result = new Map<Tune, Record<string, number[]>>(TUNES.map((t) => [t, { idle: [], busy: [] }]));
  const parts = new Map<Tune, Record<string, GhostPoint[]>>(TUNES.map((t) => [t, { idle: [], busy: [] }]));
  for (let s = 0; s < GHOST_SESSIONS; s += 1) {
    const busy = s % 4 === 1 || s % 4 === 2;
    for (const t of s % 2 === 0 ? TUNES : TUNES.toReversed()) {
      const p = pools.get(t)!;
      const pauses = typingSession(makeNote(GHOST_NOTE, s + 1), GHOST_PAUSES + 1, { seed: 100 + s, editEvery: 0 });
      const stop = { stopped: false };
      const translations = busy
        ? [0, 1, 2].map(async (i) => {
            while (!stop.stopped) await p.submit({ task: `translate${i}`, params: request(`${i} ${LONG_PROMPT}`, 64) });
          })
        : [];
      if (busy) await sleep(500);
      const points: GhostPoint[] = await ghostSession(p, pauses, `ghost${s}`);
      stop.stopped = true;
      await Promise.all(translations);
      const warm = points.slice(1);
      result.get(t)![busy ? 'busy' : 'idle']!.push(...warm.map((x) => x.ms));
      parts.get(t)![busy ? 'busy' : 'idle']!.push(...warm);
      say(
        `${tuned(t, 'ghost')} session ${s} (${busy ? 'beside 3 translation jobs' : 'idle'}): first token ms ${warm.map((x) => f(x.ms, 0)).join(',')}; prefilled ${warm.map((x) => x.prefilled).join(',')} of ${median(warm.map((x) => x.prompt))}; median ${f(median(warm.map((x) => x.ms)), 1)} ms`,
      );
    }
  }
  const report: Record<string, unknown> = {};
  for (const t of TUNES) {
    const r = result.get(t)!;
    const ratio = median(r.busy!) / median(r.idle!);
    say(
      `${tuned(t, 'ghost')} first token, median: idle ${f(median(r.idle!), 1)} ms, beside 3 translation jobs ${f(median(r.busy!), 1)} ms (${f(ratio)}x idle)`,
    );
    // Where the time goes (medians): the pool's queue, page <-> worker messages (the rest), the worker's wait
    // for the step in flight, the prefill itself; how many keystrokes were taken at a step's readback.
    const split: Record<string, Record<string, number>> = {};
    for (const [name, points] of Object.entries(parts.get(t)!)) {
      const m = (pick: (point: GhostPoint) => number) => median(points.map(pick));
      split[name] = {
        queueMs: m((point) => point.queueMs),
        outsideMs: m((point) => point.ms - point.queueMs - point.engineMs),
        laneWaitMs: m((point) => point.laneWaitMs ?? Number.NaN),
        prefillMs: m((point) => point.lanePrefillMs ?? Number.NaN),
        overlapped: points.filter((point) => point.overlapped).length,
        busyAtOpen: m((point) => point.busyAtOpen ?? Number.NaN),
      };
      const x = split[name]!;
      say(
        `${tuned(t, 'ghost')} ${name}, medians: pool queue ${f(x.queueMs!, 1)} ms, page<->worker ${f(x.outsideMs!, 1)} ms, waiting in the worker ${f(x.laneWaitMs!, 1)} ms, prefill ${f(x.prefillMs!, 1)} ms; taken at a step's readback ${x.overlapped} of ${points.length}; jobs on the lanes at arrival ${f(x.busyAtOpen!, 0)}`,
      );
    }
    report[t.name] = { ...r, ratio, split };
  }
  out.ghost = TUNES.length === 1 ? report[TUNES[0]!.name] : report;
  await Promise.all([...pools.values()].map((p) => p.unload()));
}

// ---- cancel beside 3 other jobs ----
async function cancels(tune: Tune): Promise<void> {
  const probe = probeEngines(engines(4, tune));
  const p = await pool(1, 4, probe.createEngine);
  const others = [0, 1, 2].map((i) => greedy(promptOf(i + 4), 40));
  const alone: string[] = [];
  for (const o of others) alone.push((await p.submit({ task: 'alone', params: o })).text);
  const report: Record<string, unknown> = {};
  for (const mode of ['on-chunk', 'timer'] as const) {
    const after: number[] = [];
    let unchanged = 0;
    for (let rep = 0; rep < CANCEL_REPS; rep += 1) {
      const running = others.map((o, i) => p.submit({ task: `other${i}`, params: o }));
      await sleep(20);
      let cancelAt = 0;
      let seen = 0;
      let index = -1;
      const id = `victim-${mode}-${rep}`;
      const cancel = () => {
        cancelAt = performance.now();
        p.cancel(id);
      };
      const victim = await p.submit({
        id,
        task: 'victim',
        params: request(LONG_PROMPT, 4096),
        onChunk: (chunk) => {
          if (!chunk.choices[0]?.delta.content) return;
          seen += 1;
          if (seen === 1) index = probe.streams.length - 1;
          if (seen !== 16) return;
          if (mode === 'timer') setTimeout(cancel, [5, 15, 25, 35, 10, 20][rep % 6]);
          else cancel();
        },
      });
      if (victim.status !== 'cancelled') throw new Error(`the victim ended ${victim.status}`);
      const texts = (await Promise.all(running)).map((r) => r.text);
      const end = performance.now() + 5000;
      const stream = (): ProbedChunk[] => probe.streams[index] ?? [];
      while (!stream().some((c) => c.finish !== null) && performance.now() < end) await sleep(2);
      after.push(afterCancel(stream(), cancelAt).tokens);
      if (texts.every((t, i) => t === alone[i])) unchanged += 1;
    }
    const histogram: Record<string, number> = {};
    for (const a of after) histogram[a] = (histogram[a] ?? 0) + 1;
    say(
      `${tuned(tune, 'cancel')} (${mode}) beside 3 jobs: tokens after the cancel ${JSON.stringify(histogram)} of ${after.length}; the 3 others' text as alone in ${unchanged} of ${CANCEL_REPS}`,
    );
    report[mode] = { after, unchanged };
  }
  if (tune === TUNES[0]) out.cancel = report;
  else out[tuned(tune, 'cancel')] = report;
  await p.unload();
}

say(`lanes bench: ${[...PARTS].join(',')}; nvidia-smi memory now ${f(gpuMemoryMiB(), 0)} MiB`);
if (PARTS.has('check')) await check();
if (PARTS.has('pick')) await pickAB();
if (PARTS.has('fork')) await forkAB();
if (PARTS.has('grammar')) {
  const { engine, pipeline } = await localEngine();
  await grammarPart(engine, pipeline);
}
await local?.engine.unload();
local = undefined;
if (PARTS.has('memory')) await memoryAt4();
if (PARTS.has('throughput')) await scaling();
if (PARTS.has('ghost')) await ghost();
if (PARTS.has('cancel')) for (const t of TUNES) await cancels(t);
server.close();
clock.stop();
console.log(`RESULT ${JSON.stringify(out)}`);
process.exit(0);
