/**
 * Lanes: several generations at once on one copy of the weights. WebLLM's
 * pipeline runs one sequence (seq id 0); the model library it loads also
 * exports `batch_decode` and builds paged KV caches of many sequences. The
 * lanes make a second cache of N sequences and run the kit's own loop over
 * WebLLM's loaded model: a new job's prompt is prefilled alone, between two
 * steps (so a ghost-text keystroke goes before the next step of the batch, or
 * during a step's readback when it arrives then);
 * every job whose page asked for its next chunk then advances in one
 * `embed` + `batch_decode` over all of them, and one pick per row: greedy
 * rows on the GPU (`gpuPick.ts`, one id each read back), the others on the
 * CPU from the rows read back (`laneSampler.ts`). A decode step costs about the same whatever the
 * batch (its time is JavaScript encoding ~250 kernels), so N jobs share it.
 *
 * Each lane keeps the tokens its sequence holds after a job: the next job
 * takes the free lane with the longest common prefix, pops the rest
 * (`kv_state_popn` on that sequence) and prefills only the new tail, so a
 * session's next request finds its own lane. A job steps only when its page
 * has pulled (as `hostWebLLM` does for WebLLM's own path): a cancel from the
 * chunk callback costs no token, one from a timer at most the step in flight,
 * and the other lanes go on untouched.
 *
 * This file installs them (or says why not) and is the object behind
 * `Lanes`; the rooms: `laneCache.ts` (the KV cache's sequences, forward,
 * trim and fork), `laneLoop.ts` (the step loop and its readback),
 * `laneReadback.ts` (GPU or CPU pick), `laneJob.ts`, `laneOutput.ts` (a
 * job's text, finish and usage), `laneStream.ts` (what the page pulls),
 * `laneGrammar.ts` (a JSON-schema job's matcher, where the lanes have
 * grammars).
 */

import type { ChatCompletionRequest, StreamingChatCompletionRequest } from '@inkling/scheduler';
import { createGpuPick } from './gpuPick.js';
import { LaneCache, type LaneFns, createLaneKv, laneFunctions, optionalGlobal } from './laneCache.js';
import { type LaneGrammars, noGrammars } from './laneGrammar.js';
import { type LaneJob, createLaneJob } from './laneJob.js';
import { LaneLoop } from './laneLoop.js';
import { type LanePipeline, checkLanePipeline } from './lanePipeline.js';
import { lanePromptTokens } from './lanePrompt.js';
import { LaneReadback, type RowObserver } from './laneReadback.js';
import { type LaneStream, laneStream } from './laneStream.js';
import { pipelineOf } from './webllmPipeline.js';
import { offLaneReason } from '../offLaneReason.js';

export type { LaneStream } from './laneStream.js';

/** One engine's lanes, or why it has none. */
export interface Lanes {
  /** Whether the lanes run (the pipeline passed every check and the library has `batch_decode`). */
  readonly active: boolean;
  /** Why they do not, when they do not. */
  readonly reason: string | undefined;
  /** How many sequences decode at once (1 when not active). */
  readonly count: number;
  /** Why JSON-schema and grammar jobs go to WebLLM's own path (the lanes have no grammars), or `undefined` when a lane takes them. */
  readonly grammarOff: string | undefined;
  /** Where greedy rows are picked: `'gpu'` (one id per row read back) or `'cpu'` (every logit read back). */
  readonly greedyPick: 'gpu' | 'cpu';
  /** Why `request` goes to WebLLM's own one-sequence path instead, or `undefined` when a lane takes it. */
  refuses(request: ChatCompletionRequest): string | undefined;
  /**
   * Starts `request` on a lane (call only when `refuses` gave `undefined`).
   * An `urgent` job (a keystroke's) takes the next free lane and is prefilled
   * before other new jobs, and before the batch's next step. Default: not urgent.
   */
  open(request: StreamingChatCompletionRequest, options?: { urgent?: boolean }): LaneStream;
  /** Free pages of the lanes' paged KV cache (16 tokens a page), where the runtime tells. */
  freePages(): number | undefined;
  /** Frees the lanes' KV cache. */
  dispose(): void;
}

/** Options of `installLanes`. */
export interface LaneOptions {
  /** Keep each lane's tokens and reuse the longest common prefix. Default `true`. */
  prefixReuse?: boolean;
  /** The model's name in the chunks. Default `''`. */
  model?: string;
  /**
   * Sees a copy of each row of logits before its pick, with the job's chunk
   * id: for a benchmark that compares a lane with the same sequence decoded
   * alone. Default: none (no copy is made).
   */
  observe?: RowObserver;
  /**
   * Where greedy rows are picked: `'gpu'` (default: a compute shader over
   * the logits, `gpuPick.ts`, where TVM's runtime shows its WebGPU device;
   * one token id per row comes back) or `'cpu'` (every row read back, as for
   * sampled rows). On an H100 through the pool, 8 jobs 6.84x one sequence
   * against 5.05x for the CPU pick, a keystroke beside 3 jobs 1.22x idle
   * against 1.33x (`tools/real-engine`, round 9). With `observe`, or where
   * the shader cannot start, every row is read back and picked on the CPU.
   */
  pick?: 'gpu' | 'cpu';
  /**
   * A new job whose prompt shares more with another lane's tokens than with
   * its own lane's (a document several jobs read) forks that lane's sequence
   * (`kv_state_fork_sequence`: the pages are shared, not copied) and prefills
   * only its own tail. Needs `prefixReuse`. Default `true` (3 prompts over
   * one document: first tokens in 0.6x the time with half the KV pages, the
   * same logits within 4.8e-7, on an H100); `false` prefills each prompt
   * whole.
   */
  share?: boolean;
  /**
   * The engine's grammars (`startGrammars`): JSON-schema and grammar jobs
   * take a lane, each row with its own xgrammar matcher; the lanes dispose of
   * them with themselves. Default: none, and such jobs are refused (WebLLM's
   * own path runs them).
   */
  grammars?: LaneGrammars;
}

/** Lanes that are off, saying why. */
export function noLanes(reason: string): Lanes {
  return {
    active: false,
    reason,
    count: 1,
    grammarOff: reason,
    greedyPick: 'cpu',
    freePages: () => undefined,
    refuses: () => reason,
    open: () => {
      throw new Error(`No lanes: ${reason}`);
    },
    dispose() {},
  };
}

/**
 * Starts `count` lanes on the pipeline WebLLM loaded for `model` in `engine`,
 * or says why it cannot (`active` false, `reason`): a pipeline the kit does
 * not know, a library without `batch_decode`.
 *
 * @example
 * await engine.reload(model);
 * const lanes = installLanes(engine, model, 4);
 * if (lanes.active && lanes.refuses(request) === undefined) for await (const chunk of { [Symbol.asyncIterator]: () => lanes.open(request) }) send(chunk);
 */
export function installLanes(engine: object, model: string, count: number, options: LaneOptions = {}): Lanes {
  return startLanes(pipelineOf(engine, model), count, { model, ...options });
}

/**
 * `installLanes` on a pipeline object (WebLLM's, or a stand-in of the same shape).
 *
 * @example
 * const lanes = startLanes(pipelineOf(engine, model), 4);
 */
export function startLanes(pipeline: unknown, count: number, options: LaneOptions = {}): Lanes {
  if (!(Number.isInteger(count) && count > 1)) return noLanes(`one lane asked (lanes: ${count})`);
  const reason = checkLanePipeline(pipeline);
  if (reason !== undefined) return noLanes(reason);
  const p = pipeline as LanePipeline;
  let fns: Partial<LaneFns>;
  try {
    fns = laneFunctions(p);
  } catch (error) {
    return noLanes(`the model library gives no batch_decode or paged KV cache (${error instanceof Error ? error.message : String(error)})`);
  }
  if (Object.values(fns).some((fn) => typeof fn !== 'function'))
    return noLanes('the model library gives no batch_decode or paged KV cache');
  try {
    return new LaneEngine(p, count, fns as LaneFns, {
      prefixReuse: options.prefixReuse !== false,
      model: options.model ?? '',
      observe: options.observe,
      pick: options.pick ?? 'gpu',
      share: options.share !== false,
      grammars: options.grammars ?? noGrammars('no grammars were given to the lanes'),
    });
  } catch (error) {
    return noLanes(`creating a KV cache of ${count} sequences failed (${error instanceof Error ? error.message : String(error)})`);
  }
}

/** Lanes that run: the KV cache, the picks and the loop of one engine, behind `Lanes`. */
class LaneEngine implements Lanes {
  readonly active = true;
  readonly reason = undefined;
  readonly count: number;
  readonly #p: LanePipeline;
  readonly #cache: LaneCache<LaneJob>;
  readonly #readback: LaneReadback;
  readonly #loop: LaneLoop;
  readonly #grammars: LaneGrammars;
  readonly grammarOff: string | undefined;
  #serial = 0;

  constructor(
    p: LanePipeline,
    count: number,
    fns: LaneFns,
    options: {
      prefixReuse: boolean;
      model: string;
      observe: RowObserver | undefined;
      pick: 'gpu' | 'cpu';
      share: boolean;
      grammars: LaneGrammars;
    },
  ) {
    this.#p = p;
    this.#grammars = options.grammars;
    this.grammarOff = options.grammars.active
      ? undefined
      : `a JSON-schema or grammar constraint, which runs on WebLLM’s own path (${options.grammars.reason ?? 'no grammars'})`;
    this.count = count;
    const { tvm } = p;
    const kv = createLaneKv(p, fns, count);
    const gpu = options.pick === 'gpu' && !options.observe ? createGpuPick(tvm, count) : undefined;
    this.#readback = new LaneReadback(p, typeof gpu === 'object' ? gpu : undefined, options.observe);
    this.#cache = new LaneCache(p, fns, kv, count, {
      fork: options.share && options.prefixReuse ? optionalGlobal(tvm, 'vm.builtin.kv_state_fork_sequence') : undefined,
      pages: optionalGlobal(tvm, 'vm.builtin.attention_kv_cache_get_num_available_pages'),
    });
    this.#loop = new LaneLoop(p, fns, this.#cache, this.#readback, options);
  }

  freePages(): number | undefined {
    return this.#cache.freePages();
  }

  get greedyPick(): 'gpu' | 'cpu' {
    return this.#readback.greedyPick;
  }

  refuses(request: ChatCompletionRequest): string | undefined {
    const shape = offLaneReason(request, this.grammarOff);
    if (shape !== undefined) return shape;
    const prompt = lanePromptTokens(this.#p, request);
    if (typeof prompt === 'string') return prompt;
    if (prompt.length >= this.#p.contextWindowSize) return 'a prompt as long as the context window';
    return undefined;
  }

  open(request: StreamingChatCompletionRequest, options: { urgent?: boolean } = {}): LaneStream {
    const prompt = lanePromptTokens(this.#p, request);
    if (typeof prompt === 'string') throw new Error(`The lanes cannot take this request: ${prompt}`);
    this.#serial += 1;
    const job = createLaneJob(this.#p, request, prompt, {
      id: `chatcmpl-lane-${this.#serial}`,
      urgent: options.urgent === true,
      busyAtOpen: this.#loop.busy(),
      grammar: this.#grammars.forJob(request),
    });
    this.#loop.enqueue(job);
    // A schema compiles beside the other lanes' steps; its job's prefill waits for it, a bad one fails that job alone.
    job.grammar?.prepared.then(
      () => this.#loop.wake(),
      (error: unknown) => this.#loop.fail(job, error),
    );
    return laneStream(job, this.#loop);
  }

  dispose(): void {
    this.#loop.closeAll();
    this.#grammars.dispose();
    this.#readback.dispose();
    this.#cache.dispose();
  }
}
