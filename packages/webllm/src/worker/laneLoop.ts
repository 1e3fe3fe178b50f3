/**
 * The lanes' loop: while some page waits for a chunk, it gives waiting jobs
 * free lanes, prefills a new job's prompt between two steps (a keystroke's
 * first), and otherwise runs one decode step over every job whose page has
 * pulled, with one readback; a keystroke arriving during that readback is
 * prefilled at once (`#readbackOr`). A JSON-schema job waits for its
 * grammar's compile on its lane (the others go on), and each of its tokens
 * goes through its matcher (`laneGrammar.ts`).
 */

import type { FinishReason } from '@inkling/scheduler';
import { type LaneCache, type LaneFns, commonPrefix } from './laneCache.js';
import { type JobLane, type LaneJob, compiling, settle } from './laneJob.js';
import { addToken, endJob } from './laneOutput.js';
import type { LanePipeline } from './lanePipeline.js';
import type { LaneReadback, Picked } from './laneReadback.js';
import type { StreamLoop } from './laneStream.js';

/**
 * How long a decode step waits for the pulls of the other decoding jobs:
 * a page's pull comes back within a message hop or two of its chunk, and a
 * step is ~16 ms that every job then shares.
 */
const GATHER_MS = 2;

/** The loop over one engine's lanes, its queue of jobs waiting for a lane, and its steps. */
export class LaneLoop implements StreamLoop {
  readonly #p: LanePipeline;
  readonly #fns: LaneFns;
  readonly #cache: LaneCache<LaneJob>;
  readonly #readback: LaneReadback;
  readonly #lanes: JobLane[];
  readonly #waiting: LaneJob[] = [];
  readonly #reuse: boolean;
  readonly #model: string;
  #running = false;
  /** A wake came while the loop ran: look again before it stops. */
  #again = false;
  /** Until when a step waits for the other decoding jobs' pulls (see `#gather`). */
  #gatherUntil: number | undefined;
  /** Wakes a step waiting for its readback (see `#readbackOr`). */
  #nudge: (() => void) | undefined;

  constructor(
    p: LanePipeline,
    fns: LaneFns,
    cache: LaneCache<LaneJob>,
    readback: LaneReadback,
    options: { prefixReuse: boolean; model: string },
  ) {
    this.#p = p;
    this.#fns = fns;
    this.#cache = cache;
    this.#readback = readback;
    this.#lanes = cache.lanes;
    this.#reuse = options.prefixReuse;
    this.#model = options.model;
  }

  /** Jobs on the lanes that have not ended. */
  busy(): number {
    return this.#lanes.filter((lane) => lane.job && !lane.job.ended && !lane.job.closed).length;
  }

  /** Queues a new job for a lane: an urgent one ahead of the others, in their own arrival order. */
  enqueue(job: LaneJob): void {
    const behind = job.urgent ? this.#waiting.findIndex((other) => !other.urgent) : -1;
    this.#waiting.splice(behind < 0 ? this.#waiting.length : behind, 0, job);
  }

  close(job: LaneJob): void {
    if (job.closed) return;
    job.closed = true;
    job.grammar?.dispose();
    settle(job);
    const waiting = this.#waiting.indexOf(job);
    if (waiting >= 0) this.#waiting.splice(waiting, 1);
    if (job.lane) job.lane.job = undefined;
    this.wake();
  }

  /** Fails `job` alone with `error` (its schema did not compile): it leaves the queue or its lane. */
  fail(job: LaneJob, error: unknown): void {
    if (job.ended || job.closed) return;
    job.error = error;
    job.ended = true;
    const waiting = this.#waiting.indexOf(job);
    if (waiting >= 0) this.#waiting.splice(waiting, 1);
    this.#release(job, false);
    settle(job);
  }

  /** Closes every job, on a lane or waiting for one. */
  closeAll(): void {
    for (const lane of this.#lanes) if (lane.job) this.close(lane.job);
    for (const job of this.#waiting.splice(0)) this.close(job);
  }

  wake(): void {
    if (this.#running) {
      this.#again = true;
      this.#nudge?.();
      return;
    }
    this.#running = true;
    this.#again = false;
    void this.#loop().finally(() => {
      this.#running = false;
      if (this.#again) this.wake();
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
      const ready = hungry.filter((job) => !job.ended && !job.closed && !compiling(job));
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
          settle(job);
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
   * chunks), so one step carries them all instead of the first one alone;
   * each pull ends the wait at once (the loop counts again). True while the
   * wait goes on; false once `GATHER_MS` has passed.
   */
  async #gather(): Promise<boolean> {
    const now = performance.now();
    this.#gatherUntil ??= now + GATHER_MS;
    if (now >= this.#gatherUntil) return false;
    // Until the next pull (`wake` nudges) or the end of the wait, whichever comes first.
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, this.#gatherUntil! - now);
      this.#nudge = () => {
        clearTimeout(timer);
        resolve();
      };
    });
    this.#nudge = undefined;
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
  async #prefill(job: LaneJob, during = false): Promise<void> {
    const lane = job.lane!;
    const { tvm } = this.#p;
    job.prefillAt = performance.now();
    job.overlapped = during;
    // At most all but one prompt token: the last one's logits are the first pick's.
    const own = Math.min(this.#reuse && !lane.dirty ? commonPrefix(lane.tokens, job.prompt) : 0, job.prompt.length - 1);
    const forked = this.#cache.share(lane, job.prompt, own);
    const keep = forked ?? this.#cache.trim(lane, own);
    job.cached = keep;
    const rest = job.prompt.slice(keep);
    const chunk = this.#p.prefillChunkSize;
    let picked: Picked | undefined;
    for (let from = 0; from < rest.length; from += chunk) {
      const part = rest.slice(from, from + chunk);
      const last = from + chunk >= rest.length;
      tvm.beginScope();
      try {
        const logits = this.#cache.forward(part, [lane.seq], [part.length], part.length > 1 ? this.#p.prefill : this.#p.decoding);
        // During a step's readback: the CPU pick, into a buffer of its own (the step's rows are still coming back).
        if (last) picked = during ? this.#readback.pickOutBeside(logits) : this.#readback.pickOut(logits, [job]);
      } finally {
        tvm.endScope();
      }
      lane.tokens.push(...part);
      if (!last) await this.#p.device.sync();
    }
    const tokens = await this.#readback.picks(picked!);
    if (job.closed) return;
    this.#take(job, tokens, 0);
  }

  /** One decode step of every job in `jobs`, one row each. */
  async #step(jobs: LaneJob[]): Promise<void> {
    const { tvm } = this.#p;
    const tokens = jobs.map((job) => job.next!);
    let picked: Picked;
    tvm.beginScope();
    try {
      const fn = jobs.length > 1 ? this.#fns.batchDecode : this.#p.decoding;
      const logits = this.#cache.forward(
        tokens,
        jobs.map((job) => job.lane!.seq),
        jobs.map(() => 1),
        fn,
        true,
      );
      picked = this.#readback.pickOut(logits, jobs);
    } finally {
      tvm.endScope();
    }
    for (const [i, job] of jobs.entries()) {
      job.lane?.tokens.push(tokens[i]!);
      job.next = undefined;
    }
    const picks = await this.#readbackOr(this.#readback.picks(picked));
    // A constrained row's next mask was started at its last token; it is ready long before the readback.
    if (jobs.some((job) => job.grammar)) await Promise.all(jobs.map((job) => job.grammar?.prepared.catch(() => undefined)));
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
        .find(
          (j) =>
            j?.urgent &&
            j.waiter !== undefined &&
            j.next === undefined &&
            j.prefillAt === undefined &&
            !j.ended &&
            !j.closed &&
            !compiling(j),
        );
      if (!job) continue;
      try {
        await this.#prefill(job, true);
      } catch (error) {
        job.error = error;
        job.ended = true;
        this.#release(job, true);
        settle(job);
      }
    }
  }

  /** The job's next token from row `i` of `picks`; the text it adds, or the end. */
  #take(job: LaneJob, picks: Int32Array | Float32Array, i: number): void {
    job.firstTokenAt ??= performance.now();
    const token = this.#readback.token(job, picks, i);
    if (job.grammar && !job.grammar.accept(token))
      return this.fail(job, new Error(`The job's grammar refused token ${token}, the one its mask left the pick (every token masked?).`));
    const reason = addToken(this.#p, this.#model, job, token);
    if (reason === undefined) settle(job);
    else this.#finish(job, reason);
  }

  #finish(job: LaneJob, reason: FinishReason): void {
    endJob(this.#model, job, reason, this.#lanes.length);
    this.#release(job, false);
    settle(job);
  }

  /** Frees the job's lane; after an error, forgets what the lane holds. */
  #release(job: LaneJob, failed: boolean): void {
    job.grammar?.dispose();
    const lane = job.lane;
    if (!lane) return;
    if (lane.job === job) lane.job = undefined;
    if (failed) lane.dirty = true;
    this.wake();
  }
}
