/**
 * Prefix reuse in WebLLM, measured: the default ghost-text prompt replayed
 * over a typing session on one real WebLLM 0.2.79 engine, with the kit's
 * prefix reuse (`@inkling/webllm`'s prefixReuse.ts, the code the engine
 * worker runs: keep the longest common token prefix of the KV cache, pop the
 * rest, prefill the tail) switched off and on, alternating run by run, in the
 * same process. Per pause it reads the tokens the pipeline prefilled and the
 * time to the first streamed chunk; the greedy outputs of the two variants
 * are compared pause by pause, and the first token's log-probabilities too.
 *
 * A benchmark, not a test. Bundle with `pnpm --filter @inkling/real-engine
 * build:bench` (prefixBench.mjs comes with it) and run on a GPU machine
 * (device/h200.sh with BENCH_ENTRY=prefixBench.mjs), or on a CPU through
 * `verify:prefix-reuse` (short, the check alone). Environment:
 *   BENCH_DAWN, BENCH_LIBS, BENCH_MODELS  as for bench.ts
 *   PREFIX_NOTES       note sizes in characters (default 2000,8000)
 *   PREFIX_PAUSES      pauses per session (default 25)
 *   PREFIX_REPS        sessions per note size, each replayed both ways (default 5)
 *   PREFIX_MAX_TOKENS  tokens per ghost request (default 8)
 *   PREFIX_EDIT_EVERY  every n-th pause is an edit mid-note, 0 for none (default 8)
 *   PREFIX_CHECK_PAUSES pauses of the log-probability check (prefixCheck.ts), 0 for none (default 12)
 *   PREFIX_CHECK_NOTE   the check's note size in characters (default 4000)
 *   PREFIX_CHECK_EDIT_EVERY every n-th pause of the check is an edit, 0 for none (default 4, 2 under 8 pauses)
 *   PREFIX_GREEDY_AB=1  a third variant, prefix reuse with TVM's own greedy pick, to isolate the
 *                       one-pass pick (greedyPick.ts); every greedy pick of the patched runs is also
 *                       asked of TVM and the two compared
 *   PREFIX_PROFILE=1    per run, where prefill and decode steps spend their time (prefillProfile.ts)
 *                       and the GPU's SM clock meanwhile (gpuClock.ts)
 *   PREFIX_CHECK_ONLY=1 the check alone (no warm-up, no replays): exits 1 unless every pause's
 *                       top-5 tokens agree and their log-probabilities differ by at most 1e-5
 */
import type { MLCEngine } from '@mlc-ai/web-llm';
import { installGreedyPick } from '../../../../packages/webllm/src/worker/greedyPick.js';
import { installPrefixReuse } from '../../../../packages/webllm/src/worker/prefixReuse.js';
import { pipelineOf } from '../../../../packages/webllm/src/worker/webllmPipeline.js';
import { makeNote, typingSession } from '../../../../bench/ghost-prefix/typingSession.js';
import { median } from '../../../../bench/shared/stats.js';
import { serve } from '../serve.js';
import { CHAT_MODEL, LIBS, syntheticAppConfig } from '../setup.js';
import { writeSyntheticModel } from '../syntheticModel.js';
import { dawn, env, libs, models, say, smoke } from './benchConfig.js';
import { installNodeHost } from './nodeHost.js';
import { type GpuClock, correlation, sampleGpuClock } from './gpuClock.js';
import { checkLogprobs } from './prefixCheck.js';
import { type StepTimes, profilePipeline } from './prefillProfile.js';
import {
  type PatchedPipeline,
  type Variant,
  type VariantRun,
  replayOnEngine,
  reportPrefix,
  sameOutputs,
  summarizePrefix,
} from './prefixReplay.js';

const NOTES = (env.PREFIX_NOTES ?? (smoke ? '2000' : '2000,8000')).split(',').map(Number);
const PAUSES = Number(env.PREFIX_PAUSES ?? (smoke ? 3 : 25));
const REPS = Number(env.PREFIX_REPS ?? (smoke ? 1 : 5));
const MAX_TOKENS = Number(env.PREFIX_MAX_TOKENS ?? (smoke ? 2 : 8));
const EDIT_EVERY = Number(env.PREFIX_EDIT_EVERY ?? 8);
const CHECK_PAUSES = Number(env.PREFIX_CHECK_PAUSES ?? (smoke ? 3 : 12));
const CHECK_NOTE = Number(env.PREFIX_CHECK_NOTE ?? 4000);
const CHECK_ONLY = env.PREFIX_CHECK_ONLY === '1';
const PROFILE = env.PREFIX_PROFILE === '1';
const GREEDY_AB = env.PREFIX_GREEDY_AB === '1';

say('generating the synthetic model (random weights) if missing');
await writeSyntheticModel({ libPath: `${libs}/${LIBS.chat}`, dir: `${models}/${CHAT_MODEL}`, tokenizer: 'qwen', fill: 'random' });
const { server, base } = await serve({ '/libs/': libs, '/models/': models });
await installNodeHost({ dawn, origin: base, toggles: env.BENCH_DAWN_TOGGLES?.split(',').filter(Boolean) });
const webllm = await import('@mlc-ai/web-llm');
const appConfig = syntheticAppConfig(base, false);
for (const model of appConfig.model_list) model.overrides = { ...model.overrides, context_window_size: 2048 };
const engine = new webllm.MLCEngine({ appConfig: appConfig as never });
let start = performance.now();
await engine.reload(CHAT_MODEL);
say(`loaded in ${((performance.now() - start) / 1000).toFixed(1)} s`);
const reuse = installPrefixReuse(engine, CHAT_MODEL);
say(reuse.active ? 'prefix reuse: on' : `prefix reuse: off, ${reuse.reason}`);
if (!reuse.active) throw new Error(`prefix reuse cannot be installed here: ${reuse.reason}`);
// TVM's own pick, kept to compare with (the hook replaces the instance's method).
const tvm = (pipelineOf(engine, CHAT_MODEL) as { tvm: Record<string, (...args: unknown[]) => number> }).tvm;
const tvmPick = tvm.sampleTopPFromLogits!.bind(tvm);
const greedy = installGreedyPick(engine, CHAT_MODEL);
say(greedy.active ? 'greedy pick: one pass' : `greedy pick: TVM's, ${greedy.reason}`);
const agreement = { same: 0, of: 0 };
// Only in its own replay after the timed ones: asking TVM too costs its sort.
let comparePicks = false;
if (greedy.active) {
  const hook = tvm.sampleTopPFromLogits!;
  tvm.sampleTopPFromLogits = (logits, temperature, topP) => {
    const token = hook(logits, temperature, topP);
    if (comparePicks && greedy.enabled && (temperature as number) < 1e-6) {
      agreement.of += 1;
      if (tvmPick(logits, temperature, topP) === token) agreement.same += 1;
    }
    return token;
  };
}
// As the engine worker does: each request arms the reuse before WebLLM prefills it.
const completions = engine.chat.completions as unknown as { create: (request: unknown) => Promise<unknown> };
const create = completions.create.bind(completions);
completions.create = (request) => {
  reuse.arm();
  return create(request);
};
const pipeline: PatchedPipeline = {
  set prefixReuse(on: boolean) {
    reuse.enabled = on;
  },
  get lastPrefilledTokens() {
    return reuse.last?.prefilledTokens;
  },
  get lastReusedTokens() {
    return reuse.last?.cachedTokens;
  },
};

const profile = PROFILE ? profilePipeline(pipelineOf(engine, CHAT_MODEL)) : undefined;
const clock: GpuClock | undefined = PROFILE ? sampleGpuClock(50) : undefined;
interface ProfiledRun {
  variant: Variant;
  mhz: number;
  steps: StepTimes[];
  firstTokenMs: number[];
}
const profiled: ProfiledRun[] = [];

// Warm both paths (shaders, allocations) on a throwaway session.
const warmSession = typingSession(makeNote(1500, 99), 3, { seed: 99, editEvery: 0 });
for (const on of CHECK_ONLY ? [] : [false, true]) {
  pipeline.prefixReuse = on;
  greedy.enabled = on;
  await engine.resetChat();
  await replayOnEngine(engine as MLCEngine, pipeline, warmSession, MAX_TOKENS);
}

// Typing and an edit every 4th pause (every 2nd in a check of fewer), so the check covers short and long pops.
const checkEdits = Number(env.PREFIX_CHECK_EDIT_EVERY ?? (CHECK_PAUSES >= 8 ? 4 : 2));
const check =
  CHECK_PAUSES > 0
    ? await checkLogprobs(
        engine as MLCEngine,
        pipeline,
        typingSession(makeNote(CHECK_NOTE, 7), CHECK_PAUSES, { seed: 7, editEvery: checkEdits }),
      )
    : undefined;
const fmtDiffs = (xs: number[]) => xs.map((x) => x.toExponential(1)).join(',');
if (check) {
  say(
    `log-probability check: same top-5 tokens in ${check.sameTopTokens} of ${check.pauses} pauses; max |logprob difference| with vs without prefix reuse ${check.maxPatchDiff.toExponential(2)} (per pause ${fmtDiffs(check.patchDiffs)}); between consecutive keystrokes' prompts ${fmtDiffs(check.keystrokeDiffs)}`,
  );
  say(`sample top log-probabilities: ${JSON.stringify(check.sample)}`);
}

if (CHECK_ONLY) {
  await engine.unload();
  server.close();
  const ok = check !== undefined && check.sameTopTokens === check.pauses && check.maxPatchDiff <= 1e-5;
  console.log(
    `prefix reuse check: ${ok ? 'PASS' : 'FAIL'} (${check?.sameTopTokens} of ${check?.pauses} pauses with the same top-5 tokens; max difference ${check?.maxPatchDiff.toExponential(2)}, limit 1e-5)`,
  );
  console.log(`RESULT ${JSON.stringify({ check })}`);
  process.exit(ok ? 0 : 1);
}

const runs: VariantRun[] = [];
start = performance.now();
for (const note of NOTES) {
  for (let rep = 0; rep < REPS; rep += 1) {
    const session = typingSession(makeNote(note, rep + 1), PAUSES, { seed: 100 + rep, editEvery: EDIT_EVERY });
    const variants: Variant[] = GREEDY_AB ? ['unpatched', 'patched', 'reuse only'] : ['unpatched', 'patched'];
    // Rotated rep by rep, so no variant always runs first.
    const order = variants.map((_, i) => variants[(i + rep) % variants.length]!);
    for (const variant of order) {
      pipeline.prefixReuse = variant !== 'unpatched';
      greedy.enabled = variant === 'patched';
      await engine.resetChat();
      profile?.take();
      const from = performance.now();
      const pauses = await replayOnEngine(engine as MLCEngine, pipeline, session, MAX_TOKENS);
      runs.push({ note, variant, rep, pauses });
      if (profile && clock) {
        // The first (cold) pause left out, as in the summary.
        const taken = profile.take();
        const second = taken.findIndex((s, i) => i > 0 && s.kind === 'prefill');
        const steps = second < 0 ? [] : taken.slice(second);
        const mhz = clock.window(from, performance.now()).mhz;
        profiled.push({ variant, mhz, steps, firstTokenMs: pauses.slice(1).map((p) => p.firstTokenMs) });
        say(
          `${note} chars rep ${rep} ${variant}: ${profileLine(steps.filter((s) => s.kind === 'prefill'))} | ${profileLine(steps.filter((s) => s.kind === 'decode'))} | SM ${mhz.toFixed(0)} MHz`,
        );
      }
      const warm = pauses.slice(1);
      say(
        `${note} chars rep ${rep} ${variant}: prefilled ${warm.map((p) => p.prefilled).join(',')}; first token ms ${warm.map((p) => p.firstTokenMs.toFixed(0)).join(',')}`,
      );
    }
  }
}
clock?.stop();
if (greedy.active) {
  comparePicks = true;
  pipeline.prefixReuse = true;
  greedy.enabled = true;
  await engine.resetChat();
  await replayOnEngine(engine as MLCEngine, pipeline, typingSession(makeNote(4000, 42), 12, { seed: 42, editEvery: 4 }), MAX_TOKENS);
  comparePicks = false;
}
if (PROFILE) reportProfile(profiled);
say(`replays took ${((performance.now() - start) / 1000).toFixed(1)} s`);
await engine.unload();
server.close();
const rows = summarizePrefix(runs);
const outputs = sameOutputs(runs);
console.log(`\n${reportPrefix(rows)}\n`);
console.log(`greedy outputs identical with and without prefix reuse: ${outputs.same} of ${outputs.of} pauses`);
console.log(
  `greedy picks: the one-pass pick equals TVM's in ${agreement.same} of ${agreement.of} tokens (12 pauses of a 4,000-char note, an edit every 4th)`,
);
console.log(
  `RESULT ${JSON.stringify({ notes: NOTES, pauses: PAUSES, reps: REPS, maxTokens: MAX_TOKENS, editEvery: EDIT_EVERY, rows, agreement: outputs, greedyPicks: agreement, check, runs })}`,
);

function profileLine(steps: StepTimes[]): string {
  const m = (pick: (s: StepTimes) => number) => median(steps.map(pick)).toFixed(1);
  const parts = `copy ${m((s) => s.parts.copy)}, sync ${m((s) => s.parts.sync)}, penalty ${m((s) => s.parts.penalty)}, pick ${m((s) => s.parts.pick)}`;
  return `${steps[0]?.kind ?? 'none'} ms p50 total ${m((s) => s.total)} = encode ${m((s) => s.encode)} + wait ${m((s) => s.wait)} + sample ${m((s) => s.sample)} (${parts}) + other ${m((s) => s.other)}; ${m((s) => s.kernels)} kernels`;
}

/** Per variant, the step phases' medians and how the prefill's total follows the clock from run to run. */
function reportProfile(all: readonly ProfiledRun[]) {
  for (const variant of ['unpatched', 'patched', 'reuse only'] as const) {
    if (!all.some((r) => r.variant === variant)) continue;
    const mine = all.filter((r) => r.variant === variant);
    const steps = mine.flatMap((r) => r.steps);
    console.log(`profile ${variant}: ${profileLine(steps.filter((s) => s.kind === 'prefill'))}`);
    console.log(`profile ${variant}: ${profileLine(steps.filter((s) => s.kind === 'decode'))}`);
    const perRun = mine.map((r) => median(r.steps.filter((s) => s.kind === 'prefill').map((s) => s.total)));
    console.log(
      `profile ${variant}: per run SM MHz ${mine.map((r) => r.mhz.toFixed(0)).join(',')}; prefill ms p50 ${perRun.map((x) => x.toFixed(1)).join(',')}; correlation ${correlation(
        mine.map((r) => r.mhz),
        perRun,
      ).toFixed(2)}`,
    );
  }
}
