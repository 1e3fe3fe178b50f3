/**
 * Prefix reuse in WebLLM, measured: the default ghost-text prompt replayed
 * over a typing session on one real WebLLM 0.2.79 engine, with the
 * measurement patch (prefixReusePatch.ts: keep the longest common token
 * prefix of the KV cache, pop the rest, prefill the tail) switched off and on,
 * alternating run by run, in the same process. Per pause it reads the tokens
 * the pipeline prefilled and the time to the first streamed chunk; the
 * greedy outputs of the two variants are compared pause by pause.
 *
 * A benchmark, not a test, and the only place the patch exists. Bundle with
 * `pnpm --filter @inkling/real-engine build:prefix-bench` and run on a GPU
 * machine (device/h200.sh with BENCH_ENTRY=prefixBench.mjs). Environment:
 *   BENCH_DAWN, BENCH_LIBS, BENCH_MODELS  as for bench.ts
 *   PREFIX_NOTES       note sizes in characters (default 2000,8000)
 *   PREFIX_PAUSES      pauses per session (default 25)
 *   PREFIX_REPS        sessions per note size, each replayed both ways (default 5)
 *   PREFIX_MAX_TOKENS  tokens per ghost request (default 8)
 *   PREFIX_EDIT_EVERY  every n-th pause is an edit mid-note, 0 for none (default 8)
 *   PREFIX_CHECK_PAUSES pauses of the log-probability check (prefixCheck.ts), 0 for none (default 12)
 */
import type { MLCEngine } from '@mlc-ai/web-llm';
import { makeNote, typingSession } from '../../../../bench/ghost-prefix/typingSession.js';
import { serve } from '../serve.js';
import { CHAT_MODEL, LIBS, syntheticAppConfig } from '../setup.js';
import { writeSyntheticModel } from '../syntheticModel.js';
import { dawn, env, libs, models, say, smoke } from './benchConfig.js';
import { installNodeHost } from './nodeHost.js';
import { checkLogprobs } from './prefixCheck.js';
import { type PatchedPipeline, type Variant, type VariantRun, replayOnEngine, reportPrefix, sameOutputs, summarizePrefix } from './prefixReplay.js';

const NOTES = (env.PREFIX_NOTES ?? (smoke ? '2000' : '2000,8000')).split(',').map(Number);
const PAUSES = Number(env.PREFIX_PAUSES ?? (smoke ? 3 : 25));
const REPS = Number(env.PREFIX_REPS ?? (smoke ? 1 : 5));
const MAX_TOKENS = Number(env.PREFIX_MAX_TOKENS ?? (smoke ? 2 : 8));
const EDIT_EVERY = Number(env.PREFIX_EDIT_EVERY ?? 8);
const CHECK_PAUSES = Number(env.PREFIX_CHECK_PAUSES ?? (smoke ? 3 : 12));

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
const pipeline = (engine as unknown as { loadedModelIdToPipeline: Map<string, PatchedPipeline> }).loadedModelIdToPipeline.get(CHAT_MODEL);
if (typeof pipeline?.resetChatForNewPrompt !== 'function') throw new Error('This bundle of WebLLM lacks the prefix-reuse measurement patch: build it with build:prefix-bench.');

// Warm both paths (shaders, allocations) on a throwaway session.
const warmSession = typingSession(makeNote(1500, 99), 3, { seed: 99, editEvery: 0 });
for (const on of [false, true]) {
  pipeline.prefixReuse = on;
  await engine.resetChat();
  await replayOnEngine(engine as MLCEngine, pipeline, warmSession, MAX_TOKENS);
}

// Typing and an edit every 4th pause, so the check covers short and long pops.
const check = CHECK_PAUSES > 0 ? await checkLogprobs(engine as MLCEngine, pipeline, typingSession(makeNote(4000, 7), CHECK_PAUSES, { seed: 7, editEvery: 4 })) : undefined;
const fmtDiffs = (xs: number[]) => xs.map((x) => x.toExponential(1)).join(',');
if (check) {
  say(`log-probability check: same top-5 tokens in ${check.sameTopTokens} of ${check.pauses} pauses; max |logprob difference| with vs without the patch ${check.maxPatchDiff.toExponential(2)} (per pause ${fmtDiffs(check.patchDiffs)}); between consecutive keystrokes' prompts ${fmtDiffs(check.keystrokeDiffs)}`);
  say(`sample top log-probabilities: ${JSON.stringify(check.sample)}`);
}

const runs: VariantRun[] = [];
start = performance.now();
for (const note of NOTES) {
  for (let rep = 0; rep < REPS; rep += 1) {
    const session = typingSession(makeNote(note, rep + 1), PAUSES, { seed: 100 + rep, editEvery: EDIT_EVERY });
    const order: Variant[] = rep % 2 === 0 ? ['unpatched', 'patched'] : ['patched', 'unpatched'];
    for (const variant of order) {
      pipeline.prefixReuse = variant === 'patched';
      await engine.resetChat();
      const pauses = await replayOnEngine(engine as MLCEngine, pipeline, session, MAX_TOKENS);
      runs.push({ note, variant, rep, pauses });
      const warm = pauses.slice(1);
      say(`${note} chars rep ${rep} ${variant}: prefilled ${warm.map((p) => p.prefilled).join(',')}; first token ms ${warm.map((p) => p.firstTokenMs.toFixed(0)).join(',')}`);
    }
  }
}
say(`replays took ${((performance.now() - start) / 1000).toFixed(1)} s`);
await engine.unload();
server.close();
const rows = summarizePrefix(runs);
const agreement = sameOutputs(runs);
console.log(`\n${reportPrefix(rows)}\n`);
console.log(`greedy outputs identical with and without the patch: ${agreement.same} of ${agreement.of} pauses`);
console.log(`RESULT ${JSON.stringify({ notes: NOTES, pauses: PAUSES, reps: REPS, maxTokens: MAX_TOKENS, editEvery: EDIT_EVERY, rows, agreement, check, runs })}`);
