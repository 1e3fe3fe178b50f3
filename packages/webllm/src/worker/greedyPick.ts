/**
 * Greedy tokens picked in one pass. WebLLM up to 0.2.8x (the versions that
 * sample on the CPU, 0.2.79 among them) picks every token through TVM's
 * `sample_top_p_from_logits`, which sorts the whole vocabulary (151,936
 * logits for Qwen) before it looks at the temperature, and at temperature 0
 * returns the first of the sorted list. On the H200 bench that sort is 13 ms
 * of a 31 ms decode step and of a 51 ms ghost-text first token
 * (tools/real-engine, PREFIX_PROFILE=1); in a browser it runs on the
 * person's CPU in the engine worker.
 *
 * The hook answers greedy requests (temperature below TVM's 1e-6f, where TVM
 * takes the top of its sort) with the index of the largest logit, found in
 * one pass over the same CPU logits, after every penalty and `logit_bias`
 * WebLLM applied; any other temperature goes to TVM as before. It draws the
 * one random number TVM's call draws, so a seeded request's stream stays
 * where WebLLM leaves it. Ties (rare in a real model's logits) go to the
 * lowest token id, where TVM's unstable sort may pick any of them.
 *
 * Like the prefix-reuse hooks it is an own property of one engine's TVM
 * instance, installed only after the pipeline's sampling is checked to call
 * it the way this was written for; a WebLLM that samples on the GPU (0.2.86)
 * never calls it, and the hook stays off there with the reason.
 */

import { bodyOf, pipelineOf } from './webllmPipeline.js';

type Fn = (...args: never[]) => unknown;

/** The switch and the state of one engine's greedy pick. */
export interface GreedyPick {
  /** Whether the hook is installed. */
  readonly active: boolean;
  /** Why it is off, when it is; `undefined` when it is on. */
  readonly reason: string | undefined;
  /** On where active; off sends every pick to TVM (for an A/B bench). */
  enabled: boolean;
}

interface Tvm {
  sampleTopPFromLogits: (logits: unknown, temperature: number, topP: number) => number;
  rng: { randomFloat(): number };
}

/** TVM compares the temperature with the float 1e-6f. */
const GREEDY_BELOW = Math.fround(1e-6);

/** What the pipeline's and TVM's bodies must contain (property names only: they survive bundlers). */
const SAMPLES_ON_CPU = ['.sampleTopPFromLogits(', '.logitsOnCPU'];
const DRAWS_ONE = '.randomFloat()';

/**
 * Why `pipeline` (WebLLM's `LLMChatPipeline`) cannot carry the hook, or
 * `undefined` when it can. Reads only source text and fields.
 *
 * @example
 * checkGreedyPick(pipeline); // undefined on WebLLM 0.2.79; a reason on 0.2.86, which samples on the GPU
 */
export function checkGreedyPick(pipeline: unknown): string | undefined {
  if (typeof pipeline !== 'object' || pipeline === null) return 'this WebLLM keeps its pipeline elsewhere';
  const p = pipeline as { sampleTokenFromLogits?: unknown; tvm?: Partial<Record<keyof Tvm, unknown>> };
  if (typeof p.sampleTokenFromLogits !== 'function')
    return "this WebLLM's pipeline has no sampleTokenFromLogits() (0.2.86 picks tokens on the GPU)";
  const body = bodyOf(p.sampleTokenFromLogits);
  if (SAMPLES_ON_CPU.some((call) => !body.includes(call))) return 'this WebLLM picks tokens on the GPU, not through TVM on the CPU';
  const tvm = p.tvm;
  if (typeof tvm?.sampleTopPFromLogits !== 'function' || !bodyOf(tvm.sampleTopPFromLogits).includes(DRAWS_ONE))
    return "this WebLLM's TVM runtime samples in a way the hook was not written for";
  const rng = tvm.rng as { randomFloat?: unknown } | undefined;
  if (typeof rng?.randomFloat !== 'function') return "this WebLLM's TVM runtime has no random stream to keep in step";
  return undefined;
}

/** The index of the largest value; ties to the lowest index, NaN never wins (-1 when every value is NaN). */
export function argmax(values: ArrayLike<number>): number {
  let best = -1;
  let max = Number.NEGATIVE_INFINITY;
  for (let i = 0; i < values.length; i += 1) {
    const value = values[i]!;
    if (value > max || (best < 0 && value === max)) {
      max = value;
      best = i;
    }
  }
  return best;
}

/**
 * Installs the one-pass greedy pick on the pipeline of `model` in `engine`
 * (an `MLCEngine` that loaded it), or says why not.
 *
 * @example
 * const greedy = installGreedyPick(engine, 'Qwen2.5-0.5B-Instruct-q4f16_1-MLC');
 * if (!greedy.active) console.info(`greedy pick: off, ${greedy.reason}`);
 */
export function installGreedyPick(engine: object, model: string): GreedyPick {
  const pipeline = pipelineOf(engine, model);
  const reason = checkGreedyPick(pipeline);
  if (reason !== undefined) return { active: false, reason, enabled: false };
  const tvm = (pipeline as { tvm: Tvm }).tvm;
  const original = tvm.sampleTopPFromLogits as unknown as Fn;
  const pick: GreedyPick = { active: true, reason: undefined, enabled: true };
  tvm.sampleTopPFromLogits = (logits, temperature, topP) => {
    const tvmPick = () => original.call(tvm, ...([logits, temperature, topP] as never[])) as number;
    if (!pick.enabled || !(temperature < GREEDY_BELOW)) return tvmPick();
    const values = (logits as { toArray?: () => unknown } | null)?.toArray?.();
    if (!(values instanceof Float32Array)) return tvmPick();
    const token = argmax(values);
    if (token < 0) return tvmPick();
    tvm.rng.randomFloat();
    return token;
  };
  return pick;
}
