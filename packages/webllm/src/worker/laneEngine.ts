/**
 * Lanes: several generations at once on one copy of the weights. WebLLM's
 * pipeline runs one sequence (seq id 0); the model library it loads also
 * exports `batch_decode` and builds paged KV caches of many sequences. The
 * lanes make a second cache of N sequences and run the kit's own loop over
 * WebLLM's loaded model: a new job's prompt is prefilled alone, between two
 * steps (so a ghost-text keystroke goes before the next step of the batch, or
 * during a step's readback when it arrives then);
 * every job whose page asked for its next chunk then advances in one
 * `embed` + `batch_decode` over all of them, with one readback and a CPU pick
 * per row (`laneSampler.ts`). A decode step costs about the same whatever the
 * batch (its time is JavaScript encoding ~250 kernels), so N jobs share it.
 *
 * Each lane keeps the tokens its sequence holds after a job: the next job
 * takes the free lane with the longest common prefix, pops the rest
 * (`kv_state_popn` on that sequence) and prefills only the new tail, so a
 * session's next request finds its own lane. A job steps only when its page
 * has pulled (as `hostWebLLM` does for WebLLM's own path): a cancel from the
 * chunk callback costs no token, one from a timer at most the step in flight,
 * and the other lanes go on untouched.
 */

import {
  type ChatCompletionChunk,
  type ChatCompletionRequest,
  type CompletionUsage,
  type FinishReason,
  type StreamingChatCompletionRequest,
} from '@inkling/scheduler';
import { streamChunk, usageChunk } from '@inkling/scheduler/engine';
import { type LaneFn, type LanePipeline, type LaneTensor, checkLanePipeline } from './lanePipeline.js';
import { laneStopStrings, lanePromptTokens } from './lanePrompt.js';
import { type GpuPick, type PickFixup, createGpuPick } from './gpuPick.js';
import { type LaneSampling, isGreedy, pickLaneToken, seededRandom } from './laneSampler.js';
import { pipelineOf } from './webllmPipeline.js';
import { offLaneReason } from '../offLaneReason.js';

/** One job's stream from the lanes: WebLLM's chunk shapes, pulled one at a time. */
export interface LaneStream extends AsyncIterator<ChatCompletionChunk> {
  /** Ends the generation before its next step, with a finish chunk (`abort`) and the usage. */
  interrupt(): void;
  /** Leaves the stream: the lane is free at once, nothing more is sent. */
  return(): Promise<IteratorResult<ChatCompletionChunk>>;
}

/** One engine's lanes, or why it has none. */
export interface Lanes {
  /** Whether the lanes run (the pipeline passed every check and the library has `batch_decode`). */
  readonly active: boolean;
  /** Why they do not, when they do not. */
  readonly reason: string | undefined;
  /** How many sequences decode at once (1 when not active). */
  readonly count: number;
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
  observe?: (row: Float32Array, job: string) => void;
  /**
   * Where greedy rows are picked: `'cpu'` (default: every row read back, as
   * for sampled rows) or `'gpu'` (a compute shader over the logits,
   * `gpuPick.ts`, where TVM's runtime shows its WebGPU device: 1.5x the CPU
   * pick's tokens/s at 8 jobs on an H100 in `lanesBench`'s `pick` part, the
   * same text; opt-in, and the worker does not ask for it, until it is
   * measured through the pool). With `observe` every row is read back and
   * picked on the CPU.
   */
  pick?: 'gpu' | 'cpu';
  /**
   * A new job whose prompt shares more with another lane's tokens than with
   * its own lane's (a document several jobs read) forks that lane's sequence
   * (`kv_state_fork_sequence`: the pages are shared, not copied) and prefills
   * only its own tail. Needs `prefixReuse`. Default `false` (opt-in until it
   * is measured on a GPU).
   */
  share?: boolean;
}

/** Lanes that are off, saying why. */
export function noLanes(reason: string): Lanes {
  return {
    active: false,
    reason,
    count: 1,
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
  const { tvm } = p;
  const fns: Partial<LaneFns> = {};
  try {
    tvm.beginScope();
    try {
      fns.batchDecode = tvm.detachFromCurrentScope(p.vm.getFunction('batch_decode'));
      fns.createCache = tvm.detachFromCurrentScope(p.vm.getFunction('create_tir_paged_kv_cache'));
      for (const [key, name] of Object.entries(GLOBALS))
        fns[key as keyof typeof GLOBALS] = tvm.detachFromCurrentScope(tvm.getGlobalFunc(name));
    } finally {
      tvm.endScope();
    }
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
      pick: options.pick ?? 'cpu',
      share: options.share === true,
    });
  } catch (error) {
    return noLanes(`creating a KV cache of ${count} sequences failed (${error instanceof Error ? error.message : String(error)})`);
  }
}

const GLOBALS = {
  addSequence: 'vm.builtin.kv_state_add_sequence',
  removeSequence: 'vm.builtin.kv_state_remove_sequence',
  beginForward: 'vm.builtin.kv_state_begin_forward',
  endForward: 'vm.builtin.kv_state_end_forward',
  popN: 'vm.builtin.kv_state_popn',
} as const;

interface LaneFns extends Record<keyof typeof GLOBALS, LaneFn> {
  batchDecode: LaneFn;
  createCache: LaneFn;
}

/**
 * How long a decode step waits for the pulls of the other decoding jobs:
 * a page's pull comes back within a message hop or two of its chunk, and a
 * step is ~16 ms that every job then shares.
 */
const GATHER_MS = 2;

/** The readback buffer's key for a prefill taken during a step's readback (steps key theirs by row count). */
const PREFILL_BUFFER = 0;

/** Page size of the paged KV cache, as WebLLM makes its own. */
const PAGE_SIZE = 16;

interface Job {
  readonly id: string;
  readonly request: StreamingChatCompletionRequest;
  readonly prompt: number[];
  readonly sampling: LaneSampling;
  readonly stops: string[];
  readonly maxTokens: number;
  /** A keystroke's job: first to a free lane, and its prefill before other new jobs'. */
  readonly urgent: boolean;
  lane: Lane | undefined;
  /** Prompt tokens found in the lane's cache. */
  cached: number;
  /** The sampled token not yet in the cache (fed by the next step). */
  next: number | undefined;
  readonly output: number[];
  readonly counts: Map<number, number>;
  /** Characters of text already sent. */
  sent: number;
  readonly queue: ChatCompletionChunk[];
  waiter: ((step: IteratorResult<ChatCompletionChunk>) => void) | undefined;
  failer: ((reason: unknown) => void) | undefined;
  error: unknown;
  ended: boolean;
  closed: boolean;
  interrupted: boolean;
  readonly started: number;
  /** When its prefill began (after the step in flight, or at that step's readback for an urgent job). */
  prefillAt: number | undefined;
  /** Its prefill was taken while a decode step's readback was under way (see `#step`). */
  overlapped: boolean;
  /** Jobs on the engine's lanes when this one arrived. */
  busyAtOpen: number;
  firstTokenAt: number | undefined;
}

interface Lane {
  readonly seq: number;
  /** The tokens the lane's sequence holds, in order. */
  tokens: number[];
  /** A failed step left the sequence in a state not known: the next job starts it afresh. */
  dirty: boolean;
  job: Job | undefined;
}

class LaneEngine implements Lanes {
  readonly active = true;
  readonly reason = undefined;
  readonly count: number;
  readonly #p: LanePipeline;
  readonly #fns: LaneFns;
  readonly #kv: unknown;
  readonly #lanes: Lane[];
  readonly #waiting: Job[] = [];
  readonly #reuse: boolean;
  readonly #model: string;
  readonly #observe: LaneOptions['observe'];
  readonly #gpu: GpuPick | undefined;
  /** TVM's fork of a sequence, while it works (a failed fork turns it off). */
  #fork: LaneFn | undefined;
  readonly #pages: LaneFn | undefined;
  readonly #readback = new Map<number, LaneTensor>();
  /** The GPU pick's own copies of the logits, per row count. */
  readonly #gpuRows = new Map<number, LaneTensor>();
  #vocab = 0;
  #running = false;
  /** A wake came while the loop ran: look again before it stops. */
  #again = false;
  /** Until when a step waits for the other decoding jobs' pulls (see `#gather`). */
  #gatherUntil: number | undefined;
  /** Wakes a step waiting for its readback (see `#readbackOr`). */
  #nudge: (() => void) | undefined;
  #serial = 0;

  constructor(
    p: LanePipeline,
    count: number,
    fns: LaneFns,
    options: { prefixReuse: boolean; model: string; observe: LaneOptions['observe']; pick: 'gpu' | 'cpu'; share: boolean },
  ) {
    this.#p = p;
    this.#fns = fns;
    this.count = count;
    this.#reuse = options.prefixReuse;
    this.#model = options.model;
    this.#observe = options.observe;
    const { tvm } = p;
    tvm.beginScope();
    try {
      // Every lane may fill the whole context window.
      this.#kv = tvm.detachFromCurrentScope(
        fns.createCache(
          tvm.makeShapeTuple([count]),
          tvm.makeShapeTuple([p.contextWindowSize * count]),
          tvm.makeShapeTuple([p.prefillChunkSize]),
          tvm.makeShapeTuple([PAGE_SIZE]),
          tvm.makeShapeTuple([0]),
        ),
      );
      for (let seq = 0; seq < count; seq += 1) fns.addSequence(this.#kv, tvm.scalar(seq, 'int64'));
    } finally {
      tvm.endScope();
    }
    this.#lanes = Array.from({ length: count }, (_, seq) => ({ seq, tokens: [], dirty: false, job: undefined }));
    const gpu = options.pick === 'gpu' && !options.observe ? createGpuPick(tvm, count) : undefined;
    this.#gpu = typeof gpu === 'object' ? gpu : undefined;
    this.#fork = options.share && options.prefixReuse ? optionalGlobal(tvm, 'vm.builtin.kv_state_fork_sequence') : undefined;
    this.#pages = optionalGlobal(tvm, 'vm.builtin.attention_kv_cache_get_num_available_pages');
  }

  freePages(): number | undefined {
    if (!this.#pages) return undefined;
    const { tvm } = this.#p;
    tvm.beginScope();
    try {
      const pages = Number(this.#pages(this.#kv));
      return Number.isFinite(pages) ? pages : undefined;
    } catch {
      return undefined;
    } finally {
      tvm.endScope();
    }
  }

  get greedyPick(): 'gpu' | 'cpu' {
    return this.#gpu ? 'gpu' : 'cpu';
  }

  refuses(request: ChatCompletionRequest): string | undefined {
    const shape = offLaneReason(request);
    if (shape !== undefined) return shape;
    const prompt = lanePromptTokens(this.#p, request);
    if (typeof prompt === 'string') return prompt;
    if (prompt.length >= this.#p.contextWindowSize) return 'a prompt as long as the context window';
    return undefined;
  }

  open(request: StreamingChatCompletionRequest, options: { urgent?: boolean } = {}): LaneStream {
    const prompt = lanePromptTokens(this.#p, request);
    if (typeof prompt === 'string') throw new Error(`The lanes cannot take this request: ${prompt}`);
    const job = this.#job(request, prompt, options.urgent === true);
    // Urgent jobs wait ahead of the others, in their own arrival order.
    const behind = job.urgent ? this.#waiting.findIndex((other) => !other.urgent) : -1;
    this.#waiting.splice(behind < 0 ? this.#waiting.length : behind, 0, job);
    return {
      next: () => this.#pull(job),
      interrupt: () => {
        if (job.ended || job.closed) return;
        job.interrupted = true;
        this.#wake();
      },
      return: () => {
        this.#close(job);
        return Promise.resolve({ done: true, value: undefined });
      },
    };
  }

  dispose(): void {
    for (const lane of this.#lanes) if (lane.job) this.#close(lane.job);
    for (const job of this.#waiting.splice(0)) this.#close(job);
    this.#gpu?.dispose();
    for (const buffers of [this.#readback, this.#gpuRows]) {
      for (const buffer of buffers.values()) buffer.dispose();
      buffers.clear();
    }
    (this.#kv as { dispose?: () => void }).dispose?.();
  }

  #job(request: StreamingChatCompletionRequest, prompt: number[], urgent: boolean): Job {
    const config = this.#p.config;
    const bias = new Map<number, number>();
    for (const [token, value] of Object.entries(request.logit_bias ?? {})) if (Number.isFinite(value)) bias.set(Number(token), value);
    const r = request as Record<string, unknown>;
    const room = this.#p.contextWindowSize - prompt.length;
    const max = typeof request.max_tokens === 'number' && request.max_tokens > 0 ? Math.min(request.max_tokens, room) : room;
    this.#serial += 1;
    return {
      id: `chatcmpl-lane-${this.#serial}`,
      request,
      prompt,
      sampling: {
        temperature: pick(request.temperature, config.temperature, 1),
        topP: pick(request.top_p, config.top_p, 1),
        presencePenalty: pick(r.presence_penalty, config.presence_penalty, 0),
        frequencyPenalty: pick(r.frequency_penalty, config.frequency_penalty, 0),
        repetitionPenalty: pick(r.repetition_penalty, config.repetition_penalty, 1),
        logitBias: bias,
        random: typeof request.seed === 'number' ? seededRandom(request.seed) : Math.random,
      },
      stops: laneStopStrings(this.#p, request),
      maxTokens: max,
      urgent,
      lane: undefined,
      cached: 0,
      next: undefined,
      output: [],
      counts: new Map(),
      sent: 0,
      queue: [],
      waiter: undefined,
      failer: undefined,
      error: undefined,
      ended: false,
      closed: false,
      interrupted: false,
      started: performance.now(),
      prefillAt: undefined,
      overlapped: false,
      busyAtOpen: this.#lanes.filter((lane) => lane.job && !lane.job.ended && !lane.job.closed).length,
      firstTokenAt: undefined,
    };
  }

  #pull(job: Job): Promise<IteratorResult<ChatCompletionChunk>> {
    const chunk = job.queue.shift();
    if (chunk) return Promise.resolve({ done: false, value: chunk });
    if (job.error !== undefined) return Promise.reject(job.error);
    if (job.ended || job.closed) return Promise.resolve({ done: true, value: undefined });
    return new Promise((resolve, reject) => {
      job.waiter = resolve;
      job.failer = reject;
      this.#wake();
    });
  }

  #close(job: Job): void {
    if (job.closed) return;
    job.closed = true;
    this.#settle(job);
    const waiting = this.#waiting.indexOf(job);
    if (waiting >= 0) this.#waiting.splice(waiting, 1);
    if (job.lane) job.lane.job = undefined;
    this.#wake();
  }

  /** Answers the job's pending pull, if any, with what it has now. */
  #settle(job: Job): void {
    const waiter = job.waiter;
    const failer = job.failer;
    if (!waiter || !failer) return;
    if (job.error !== undefined) {
      job.waiter = job.failer = undefined;
      failer(job.error);
      return;
    }
    const chunk = job.queue.shift();
    if (chunk) {
      job.waiter = job.failer = undefined;
      waiter({ done: false, value: chunk });
    } else if (job.ended || job.closed) {
      job.waiter = job.failer = undefined;
      waiter({ done: true, value: undefined });
    }
  }

  #wake(): void {
    if (this.#running) {
      this.#again = true;
      this.#nudge?.();
      return;
    }
    this.#running = true;
    this.#again = false;
    void this.#loop().finally(() => {
      this.#running = false;
      if (this.#again) this.#wake();
    });
  }

  /** Runs prefills and steps while some page waits for a chunk. */
  async #loop(): Promise<void> {
    for (;;) {
      this.#again = false;
      this.#assign();
      // An interrupted job ends now, pulled or not (its page reads the end at its next pull): its lane is free for a waiting job.
      for (const lane of this.#lanes) if (lane.job?.interrupted && !lane.job.ended) this.#finish(lane.job, 'abort');
      if (this.#waiting.length > 0 && this.#lanes.some((lane) => lane.job === undefined)) continue;
      const hungry = this.#lanes.filter((lane) => lane.job?.waiter !== undefined).map((lane) => lane.job!);
      const ready = hungry.filter((job) => !job.ended && !job.closed);
      if (ready.length === 0) return;
      // A new job's prompt goes before the next step of the batch, a keystroke's before any other.
      const fresh = ready.find((job) => job.next === undefined && job.urgent) ?? ready.find((job) => job.next === undefined);
      if (!fresh && ready.length < this.#decoding() && (await this.#gather())) continue;
      this.#gatherUntil = undefined;
      try {
        if (fresh) await this.#prefill(fresh);
        else await this.#step(ready);
      } catch (error) {
        for (const job of ready) {
          job.error = error;
          job.ended = true;
          this.#release(job, true);
          this.#settle(job);
        }
      }
    }
  }

  /** Jobs between two tokens: their next step is a decode step. */
  #decoding(): number {
    return this.#lanes.filter((lane) => lane.job && !lane.job.ended && !lane.job.closed && lane.job.next !== undefined).length;
  }

  /**
   * Waits a moment for the pages of the other decoding jobs to ask for their
   * next chunk (their pulls cross a message channel after the last step's
   * chunks), so one step carries them all instead of the first one alone.
   * True while the wait goes on; false once `GATHER_MS` has passed.
   */
  async #gather(): Promise<boolean> {
    const now = performance.now();
    this.#gatherUntil ??= now + GATHER_MS;
    if (now >= this.#gatherUntil) return false;
    await new Promise((resolve) => setTimeout(resolve, 0));
    return true;
  }

  /** Gives each waiting job a free lane: the one whose tokens share the longest prefix with its prompt. */
  #assign(): void {
    while (this.#waiting.length > 0) {
      const free = this.#lanes.filter((lane) => lane.job === undefined);
      if (free.length === 0) return;
      const job = this.#waiting.shift()!;
      let best = free[0]!;
      let bestShared = -1;
      for (const lane of free) {
        const shared = this.#reuse ? commonPrefix(lane.tokens, job.prompt) : 0;
        if (shared > bestShared || (shared === bestShared && lane.tokens.length < best.tokens.length)) {
          best = lane;
          bestShared = shared;
        }
      }
      best.job = job;
      job.lane = best;
    }
  }

  /** Reads the job's prompt into its lane (after what the lane already holds of it); samples the first token. */
  async #prefill(job: Job, during = false): Promise<void> {
    const lane = job.lane!;
    const { tvm } = this.#p;
    job.prefillAt = performance.now();
    job.overlapped = during;
    // At most all but one prompt token: the last one's logits are the first pick's.
    const own = Math.min(this.#reuse && !lane.dirty ? commonPrefix(lane.tokens, job.prompt) : 0, job.prompt.length - 1);
    const forked = this.#share(lane, job.prompt, own);
    const keep = forked ?? this.#trim(lane, own);
    job.cached = keep;
    const rest = job.prompt.slice(keep);
    const chunk = this.#p.prefillChunkSize;
    let picked: Picked | undefined;
    for (let from = 0; from < rest.length; from += chunk) {
      const part = rest.slice(from, from + chunk);
      const last = from + chunk >= rest.length;
      tvm.beginScope();
      try {
        const logits = this.#forward(part, [lane.seq], [part.length], part.length > 1 ? this.#p.prefill : this.#p.decoding);
        // During a step's readback: the CPU pick, into a buffer of its own (the step's rows are still coming back).
        if (last) picked = during ? { rows: this.#copyOut(logits, 1, PREFILL_BUFFER) } : this.#pickOut(logits, [job]);
      } finally {
        tvm.endScope();
      }
      lane.tokens.push(...part);
      if (!last) await this.#p.device.sync();
    }
    const tokens = await this.#picks(picked!);
    if (job.closed) return;
    this.#take(job, tokens, 0);
  }

  /** One decode step of every job in `jobs`, one row each. */
  async #step(jobs: Job[]): Promise<void> {
    const { tvm } = this.#p;
    const tokens = jobs.map((job) => job.next!);
    let picked: Picked;
    tvm.beginScope();
    try {
      const fn = jobs.length > 1 ? this.#fns.batchDecode : this.#p.decoding;
      const logits = this.#forward(
        tokens,
        jobs.map((job) => job.lane!.seq),
        jobs.map(() => 1),
        fn,
        true,
      );
      picked = this.#pickOut(logits, jobs);
    } finally {
      tvm.endScope();
    }
    for (const [i, job] of jobs.entries()) {
      job.lane?.tokens.push(tokens[i]!);
      job.next = undefined;
    }
    const picks = await this.#readbackOr(this.#picks(picked));
    for (const [i, job] of jobs.entries()) {
      if (job.closed || job.ended) continue;
      this.#take(job, picks, i);
    }
  }

  /**
   * Waits for a step's picks; a keystroke that arrives meanwhile (an urgent
   * job with a lane and a pull, not prefilled yet) is prefilled at once: its
   * kernels queue behind the step's on the GPU while the step's logits come
   * back, and its first token goes out before the step's picks and chunks.
   * A failed prefill fails that job alone.
   */
  async #readbackOr<T>(picks: Promise<T>): Promise<T> {
    let done = false;
    const settled = picks.then(
      () => void (done = true),
      () => void (done = true),
    );
    for (;;) {
      const nudged = new Promise<void>((resolve) => (this.#nudge = resolve));
      await Promise.race([settled, nudged]);
      this.#nudge = undefined;
      if (done) return picks;
      this.#assign();
      const job = this.#lanes
        .map((lane) => lane.job)
        .find((j) => j?.urgent && j.waiter !== undefined && j.next === undefined && j.prefillAt === undefined && !j.ended && !j.closed);
      if (!job) continue;
      try {
        await this.#prefill(job, true);
      } catch (error) {
        job.error = error;
        job.ended = true;
        this.#release(job, true);
        this.#settle(job);
      }
    }
  }

  /**
   * Queues the pick of one row per job from `logits` (inside the forward's
   * scope): on the GPU when every job is greedy and the GPU pick runs, else
   * a copy of the rows to the CPU.
   */
  #pickOut(logits: LaneTensor, jobs: readonly Job[]): Picked {
    if (this.#vocab === 0) this.#vocab = logits.shape.at(-1)!;
    if (this.#gpu && jobs.every((job) => isGreedy(job.sampling))) {
      const fixups = jobs.flatMap((job, row) => fixupsOf(job, row));
      return { ids: this.#gpu.pick(this.#gpuCopy(logits, jobs.length) as never, jobs.length, fixups) };
    }
    return { rows: this.#copyOut(logits, jobs.length) };
  }

  /** The picked ids, or the rows read back (after the GPU finished). */
  async #picks(picked: Picked): Promise<Int32Array | Float32Array> {
    if (picked.ids) return picked.ids;
    await this.#p.device.sync();
    return picked.rows!.toArray();
  }

  /**
   * Embeds `tokens` and runs `fn` over the KV cache for sequences `seqs` of
   * `lengths`: one sequence's chunk (prefill), or one token per sequence
   * (`rows`: decode). Call inside a TVM scope; returns the logits tensor.
   */
  #forward(tokens: number[], seqs: number[], lengths: number[], fn: LaneFn, rows = false): LaneTensor {
    const p = this.#p;
    const { tvm } = p;
    const input = tvm.empty([tokens.length], 'int32', p.device).copyFrom(tokens);
    const embedded = p.embed(input, p.params) as LaneTensor;
    const hidden = embedded.shape.at(-1)!;
    const shaped = embedded.view(rows ? [tokens.length, 1, hidden] : [1, tokens.length, hidden]);
    this.#fns.beginForward(this.#kv, tvm.makeShapeTuple(seqs), tvm.makeShapeTuple(lengths));
    const result = fn(shaped, this.#kv, p.params) as { get(i: number): LaneTensor };
    this.#fns.endForward(this.#kv);
    return result.get(0);
  }

  /**
   * Queues the copy of `logits` ([rows, 1, vocab]) to a GPU tensor of the
   * lanes' own, kept per row count: the GPU pick reads its tensor from the
   * buffer's first byte, and a model's output may start anywhere in a pooled
   * buffer (TVM's copy applies the real offset; see `gpuPick.ts`).
   */
  #gpuCopy(logits: LaneTensor, rows: number): LaneTensor {
    const { tvm } = this.#p;
    let buffer = this.#gpuRows.get(rows);
    if (!buffer) {
      buffer = tvm.detachFromCurrentScope(tvm.empty([rows, 1, this.#vocab], 'float32', this.#p.device));
      this.#gpuRows.set(rows, buffer);
    }
    buffer.copyFrom(logits);
    return buffer;
  }

  /** Queues the copy of `logits` ([rows, 1, vocab]) to a CPU buffer kept per row count (or per `key`). */
  #copyOut(logits: LaneTensor, rows: number, key = rows): LaneTensor {
    const { tvm } = this.#p;
    let buffer = this.#readback.get(key);
    if (!buffer) {
      buffer = tvm.detachFromCurrentScope(tvm.empty([rows, 1, this.#vocab], 'float32', tvm.cpu()));
      this.#readback.set(key, buffer);
    }
    buffer.copyFrom(logits);
    return buffer;
  }

  /**
   * Where another lane holds a longer prefix of `prompt` than `own` (by at
   * least a page), makes `lane`'s sequence a fork of it at that length;
   * returns the length, or `undefined` (no fork: the lane is as it was).
   */
  #share(lane: Lane, prompt: readonly number[], own: number): number | undefined {
    const fork = this.#fork;
    if (!fork) return undefined;
    let donor: Lane | undefined;
    let shared = own + PAGE_SIZE - 1;
    for (const other of this.#lanes) {
      if (other === lane || other.dirty) continue;
      const n = Math.min(commonPrefix(other.tokens, prompt), prompt.length - 1);
      if (n > shared) {
        donor = other;
        shared = n;
      }
    }
    if (!donor) return undefined;
    const { tvm } = this.#p;
    tvm.beginScope();
    try {
      this.#fns.removeSequence(this.#kv, tvm.scalar(lane.seq, 'int64'));
      try {
        fork(this.#kv, tvm.scalar(donor.seq, 'int64'), tvm.scalar(lane.seq, 'int64'), tvm.scalar(shared, 'int64'));
      } catch {
        // This runtime's fork is not the one this was written for: no more forks, the lane starts empty.
        this.#fork = undefined;
        this.#fns.addSequence(this.#kv, tvm.scalar(lane.seq, 'int64'));
        lane.tokens = [];
        lane.dirty = false;
        return 0;
      }
    } finally {
      tvm.endScope();
    }
    lane.tokens = donor.tokens.slice(0, shared);
    lane.dirty = false;
    return shared;
  }

  /** Cuts the lane's sequence to its first `keep` tokens; returns `keep`. */
  #trim(lane: Lane, keep: number): number {
    if (lane.dirty) {
      lane.dirty = false;
      lane.tokens = [-1];
      keep = 0;
    }
    if (lane.tokens.length === keep) return keep;
    const { tvm } = this.#p;
    tvm.beginScope();
    try {
      if (keep === 0) {
        this.#fns.removeSequence(this.#kv, tvm.scalar(lane.seq, 'int64'));
        this.#fns.addSequence(this.#kv, tvm.scalar(lane.seq, 'int64'));
      } else {
        this.#fns.popN(this.#kv, tvm.scalar(lane.seq, 'int64'), tvm.scalar(lane.tokens.length - keep, 'int32'));
      }
    } finally {
      tvm.endScope();
    }
    lane.tokens.length = keep;
    return keep;
  }

  /**
   * The job's next token: `picks[i]` when the GPU picked it, else from row
   * `i` of the logits read back; the text it adds, or the end.
   */
  #take(job: Job, picks: Int32Array | Float32Array, i: number): void {
    job.firstTokenAt ??= performance.now();
    let token: number;
    if (picks instanceof Int32Array) token = Math.max(0, picks[i]!);
    else {
      const row = picks.subarray(i * this.#vocab, (i + 1) * this.#vocab);
      this.#observe?.(row.slice(), job.id);
      token = pickLaneToken(row, job.sampling, job.counts);
    }
    if (this.#p.stopTokens.includes(token)) return this.#finish(job, 'stop');
    job.output.push(token);
    job.counts.set(token, (job.counts.get(token) ?? 0) + 1);
    const text = this.#p.tokenizer.decode(Int32Array.from(job.output));
    const hit = firstStop(text, job.stops);
    if (hit !== undefined) {
      this.#send(job, text.slice(0, hit));
      return this.#finish(job, 'stop');
    }
    if (job.output.length >= job.maxTokens) {
      this.#send(job, text);
      return this.#finish(job, 'length');
    }
    job.next = token;
    this.#send(job, text.slice(0, heldBack(text, job.stops)));
    this.#settle(job);
  }

  /** Sends what `text` adds to what was sent. */
  #send(job: Job, text: string): void {
    if (text.length <= job.sent) return;
    job.queue.push(streamChunk(this.#meta(job), { role: 'assistant', content: text.slice(job.sent) }, null));
    job.sent = text.length;
  }

  #finish(job: Job, reason: FinishReason): void {
    job.ended = true;
    job.queue.push(streamChunk(this.#meta(job), { role: 'assistant', content: '' }, reason));
    if (job.request.stream_options?.include_usage) job.queue.push(usageChunk(this.#meta(job), this.#usage(job)));
    this.#release(job, false);
    this.#settle(job);
  }

  /** Frees the job's lane; after an error, forgets what the lane holds. */
  #release(job: Job, failed: boolean): void {
    const lane = job.lane;
    if (!lane) return;
    if (lane.job === job) lane.job = undefined;
    if (failed) lane.dirty = true;
    this.#wake();
  }

  #usage(job: Job): CompletionUsage {
    const now = performance.now();
    const first = job.firstTokenAt ?? now;
    const prefillS = (first - job.started) / 1000;
    const decodeS = (now - first) / 1000;
    const completion = job.output.length;
    return {
      prompt_tokens: job.prompt.length,
      completion_tokens: completion,
      total_tokens: job.prompt.length + completion,
      cachedTokens: job.cached,
      extra: {
        time_to_first_token_s: prefillS,
        prefill_tokens_per_s: prefillS > 0 ? (job.prompt.length - job.cached) / prefillS : 0,
        decode_tokens_per_s: decodeS > 0 && completion > 1 ? (completion - 1) / decodeS : 0,
        e2e_latency_s: (now - job.started) / 1000,
        lanes: this.count,
        // Why a first token moved: the wait for a lane and the step in flight, then the prefill itself.
        lane_wait_s: ((job.prefillAt ?? first) - job.started) / 1000,
        lane_prefill_s: (first - (job.prefillAt ?? first)) / 1000,
        lane_overlapped: job.overlapped ? 1 : 0,
        lane_busy_at_open: job.busyAtOpen,
      },
    };
  }

  #meta(job: Job) {
    return { id: job.id, model: this.#model };
  }
}

/** A global function of TVM's registry, or `undefined` where this runtime has none. */
function optionalGlobal(tvm: LanePipeline['tvm'], name: string): LaneFn | undefined {
  tvm.beginScope();
  try {
    const fn = tvm.detachFromCurrentScope(tvm.getGlobalFunc(name));
    return typeof fn === 'function' ? fn : undefined;
  } catch {
    return undefined;
  } finally {
    tvm.endScope();
  }
}

/** A pick under way: ids from the GPU, or rows copied to the CPU. */
interface Picked {
  ids?: Promise<Int32Array>;
  rows?: LaneTensor;
}

/** What the GPU pick changes in row `row` before its argmax: the job's penalties over its tokens, and its bias. */
function fixupsOf(job: Job, row: number): PickFixup[] {
  const { presencePenalty: presence, frequencyPenalty: frequency, repetitionPenalty: repetition, logitBias } = job.sampling;
  const penalised = presence !== 0 || frequency !== 0 || repetition !== 1;
  const tokens = new Set<number>(logitBias.keys());
  if (penalised) for (const token of job.counts.keys()) tokens.add(token);
  return [...tokens].map((token) => ({
    row,
    token,
    count: penalised ? (job.counts.get(token) ?? 0) : 0,
    bias: logitBias.get(token) ?? 0,
    repetition,
    presence,
    frequency,
  }));
}

/** A request's value, else the model config's, else the default. */
function pick(value: unknown, fallback: number | undefined, otherwise: number): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : (fallback ?? otherwise);
}

/** How many leading tokens `a` and `b` share. */
function commonPrefix(a: readonly number[], b: readonly number[]): number {
  const max = Math.min(a.length, b.length);
  let n = 0;
  while (n < max && a[n] === b[n]) n += 1;
  return n;
}

/** Where the first stop string begins in `text`, or `undefined`. */
function firstStop(text: string, stops: readonly string[]): number | undefined {
  let at: number | undefined;
  for (const stop of stops) {
    const i = text.indexOf(stop);
    if (i >= 0 && (at === undefined || i < at)) at = i;
  }
  return at;
}

/**
 * How much of `text` may be sent before the next token: not a character the
 * tokenizer has not finished (U+FFFD), nor a tail that could still become a
 * stop string.
 */
function heldBack(text: string, stops: readonly string[]): number {
  const unfinished = text.indexOf('\uFFFD');
  let end = unfinished >= 0 ? unfinished : text.length;
  for (const stop of stops) {
    for (let k = Math.min(stop.length - 1, end); k > 0; k -= 1) {
      if (text.endsWith(stop.slice(0, k)) && text.length - k < end) {
        end = text.length - k;
        break;
      }
    }
  }
  return end;
}
