/**
 * How a forward's logits become the lanes' next tokens: on the GPU when every
 * row of the forward is greedy and the GPU pick runs (`gpuPick.ts`: one id per
 * row comes back), else every row copied to the CPU and picked there
 * (`laneSampler.ts`). The buffers each way are the lanes' own, kept per row
 * count.
 */

import { type GpuPick, type PickFixup } from './gpuPick.js';
import type { LaneJob } from './laneJob.js';
import type { LanePipeline, LaneTensor } from './lanePipeline.js';
import { isGreedy, pickLaneToken } from './laneSampler.js';

/** Sees a copy of each row of logits before its pick, with the job's chunk id. */
export type RowObserver = (row: Float32Array, job: string) => void;

/** A pick under way: ids from the GPU, or rows copied to the CPU. */
export interface Picked {
  ids?: Promise<Int32Array>;
  rows?: LaneTensor;
}

/** The readback buffer's key for a prefill taken during a step's readback (steps key theirs by row count). */
const PREFILL_BUFFER = 0;

/** The lanes' picks: the GPU pick where it runs, the CPU's readback buffers, the row observer. */
export class LaneReadback {
  readonly #p: LanePipeline;
  readonly #gpu: GpuPick | undefined;
  readonly #observe: RowObserver | undefined;
  readonly #readback = new Map<number, LaneTensor>();
  /** The GPU pick's own copies of the logits, per row count. */
  readonly #gpuRows = new Map<number, LaneTensor>();
  #vocab = 0;

  constructor(p: LanePipeline, gpu: GpuPick | undefined, observe: RowObserver | undefined) {
    this.#p = p;
    this.#gpu = gpu;
    this.#observe = observe;
  }

  /** Where greedy rows are picked. */
  get greedyPick(): 'gpu' | 'cpu' {
    return this.#gpu ? 'gpu' : 'cpu';
  }

  /**
   * Queues the pick of one row per job from `logits` (inside the forward's
   * scope): on the GPU when every job is greedy and unconstrained and the
   * GPU pick runs, else a copy of the rows to the CPU (a JSON-schema row's
   * mask is applied there).
   */
  pickOut(logits: LaneTensor, jobs: readonly LaneJob[]): Picked {
    if (this.#vocab === 0) this.#vocab = logits.shape.at(-1)!;
    if (this.#gpu && jobs.every((job) => isGreedy(job.sampling) && !job.grammar)) {
      const fixups = jobs.flatMap((job, row) => fixupsOf(job, row));
      return { ids: this.#gpu.pick(this.#gpuCopy(logits, jobs.length) as never, jobs.length, fixups) };
    }
    return { rows: this.#copyOut(logits, jobs.length) };
  }

  /**
   * Queues the copy of a prefill's one row of `logits` to a CPU buffer of its
   * own (inside the forward's scope): for a prefill taken during a step's
   * readback, whose rows are still coming back.
   */
  pickOutBeside(logits: LaneTensor): Picked {
    return { rows: this.#copyOut(logits, 1, PREFILL_BUFFER) };
  }

  /** The picked ids, or the rows read back (after the GPU finished). */
  async picks(picked: Picked): Promise<Int32Array | Float32Array> {
    if (picked.ids) return picked.ids;
    await this.#p.device.sync();
    return picked.rows!.toArray();
  }

  /**
   * Row `i`'s token: `picks[i]` when the GPU picked it, else picked on the
   * CPU from row `i` of the logits read back (the observer sees it first,
   * then a constrained row gets its grammar's mask).
   */
  token(job: LaneJob, picks: Int32Array | Float32Array, i: number): number {
    if (picks instanceof Int32Array) return Math.max(0, picks[i]!);
    const row = picks.subarray(i * this.#vocab, (i + 1) * this.#vocab);
    this.#observe?.(row.slice(), job.id);
    job.grammar?.mask(row);
    return pickLaneToken(row, job.sampling, job.counts);
  }

  /** Frees the GPU pick and every buffer. */
  dispose(): void {
    this.#gpu?.dispose();
    for (const buffers of [this.#readback, this.#gpuRows]) {
      for (const buffer of buffers.values()) buffer.dispose();
      buffers.clear();
    }
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
}

/** What the GPU pick changes in row `row` before its argmax: the job's penalties over its tokens, and its bias. */
function fixupsOf(job: LaneJob, row: number): PickFixup[] {
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
