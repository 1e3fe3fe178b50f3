/**
 * The lanes' paged KV cache: one sequence per lane, what each sequence
 * holds, the model run over some of them (`forward`), and the cuts a new job
 * makes before its prefill (`trim` with `kv_state_popn`, `share` with
 * `kv_state_fork_sequence`). Every call here is synchronous: the lanes' loop
 * (`laneLoop.ts`) decides when they run.
 */

import type { LaneFn, LanePipeline, LaneTensor } from './lanePipeline.js';

/** Page size of the paged KV cache, as WebLLM makes its own. */
export const PAGE_SIZE = 16;

/** TVM's registry functions every lane engine needs. */
const GLOBALS = {
  addSequence: 'vm.builtin.kv_state_add_sequence',
  removeSequence: 'vm.builtin.kv_state_remove_sequence',
  beginForward: 'vm.builtin.kv_state_begin_forward',
  endForward: 'vm.builtin.kv_state_end_forward',
  popN: 'vm.builtin.kv_state_popn',
} as const;

/** The model library's and TVM's functions the lanes call. */
export interface LaneFns extends Record<keyof typeof GLOBALS, LaneFn> {
  batchDecode: LaneFn;
  createCache: LaneFn;
}

/** One lane: a sequence of the cache and the job on it (`J`: the loop's job). */
export interface Lane<J> {
  readonly seq: number;
  /** The tokens the lane's sequence holds, in order. */
  tokens: number[];
  /** A failed step left the sequence in a state not known: the next job starts it afresh. */
  dirty: boolean;
  job: J | undefined;
}

/**
 * The functions of `LaneFns` from the pipeline's model library and TVM's
 * registry (may throw where one is missing; entries may be missing where the
 * runtime gives no function).
 */
export function laneFunctions(p: LanePipeline): Partial<LaneFns> {
  const { tvm } = p;
  const fns: Partial<LaneFns> = {};
  tvm.beginScope();
  try {
    fns.batchDecode = tvm.detachFromCurrentScope(p.vm.getFunction('batch_decode'));
    fns.createCache = tvm.detachFromCurrentScope(p.vm.getFunction('create_tir_paged_kv_cache'));
    for (const [key, name] of Object.entries(GLOBALS))
      fns[key as keyof typeof GLOBALS] = tvm.detachFromCurrentScope(tvm.getGlobalFunc(name));
  } finally {
    tvm.endScope();
  }
  return fns;
}

/** Creates a paged KV cache of `count` sequences (ids 0 to `count` - 1), each with room for the whole context window. */
export function createLaneKv(p: LanePipeline, fns: LaneFns, count: number): unknown {
  const { tvm } = p;
  tvm.beginScope();
  try {
    // Every lane may fill the whole context window.
    const kv = tvm.detachFromCurrentScope(
      fns.createCache(
        tvm.makeShapeTuple([count]),
        tvm.makeShapeTuple([p.contextWindowSize * count]),
        tvm.makeShapeTuple([p.prefillChunkSize]),
        tvm.makeShapeTuple([PAGE_SIZE]),
        tvm.makeShapeTuple([0]),
      ),
    );
    for (let seq = 0; seq < count; seq += 1) fns.addSequence(kv, tvm.scalar(seq, 'int64'));
    return kv;
  } finally {
    tvm.endScope();
  }
}

/** A global function of TVM's registry, or `undefined` where this runtime has none. */
export function optionalGlobal(tvm: LanePipeline['tvm'], name: string): LaneFn | undefined {
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

/** The KV cache `createLaneKv` made, its lanes, and the runtime's optional functions over it. */
export class LaneCache<J> {
  readonly lanes: Lane<J>[];
  readonly #p: LanePipeline;
  readonly #fns: LaneFns;
  readonly #kv: unknown;
  /** TVM's fork of a sequence, while it works (a failed fork turns it off). */
  #fork: LaneFn | undefined;
  readonly #pages: LaneFn | undefined;

  constructor(
    p: LanePipeline,
    fns: LaneFns,
    kv: unknown,
    count: number,
    optional: { fork: LaneFn | undefined; pages: LaneFn | undefined },
  ) {
    this.#p = p;
    this.#fns = fns;
    this.#kv = kv;
    this.lanes = Array.from({ length: count }, (_, seq) => ({ seq, tokens: [], dirty: false, job: undefined }));
    this.#fork = optional.fork;
    this.#pages = optional.pages;
  }

  /** Free pages of the cache (`PAGE_SIZE` tokens a page), where the runtime tells. */
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

  /**
   * Embeds `tokens` and runs `fn` over the KV cache for sequences `seqs` of
   * `lengths`: one sequence's chunk (prefill), or one token per sequence
   * (`rows`: decode). Call inside a TVM scope; returns the logits tensor.
   */
  forward(tokens: number[], seqs: number[], lengths: number[], fn: LaneFn, rows = false): LaneTensor {
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
   * Where another lane holds a longer prefix of `prompt` than `own` (by at
   * least a page), makes `lane`'s sequence a fork of it at that length;
   * returns the length, or `undefined` (no fork: the lane is as it was).
   */
  share(lane: Lane<J>, prompt: readonly number[], own: number): number | undefined {
    const fork = this.#fork;
    if (!fork) return undefined;
    let donor: Lane<J> | undefined;
    let shared = own + PAGE_SIZE - 1;
    for (const other of this.lanes) {
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
  trim(lane: Lane<J>, keep: number): number {
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

  /** Frees the cache. */
  dispose(): void {
    (this.#kv as { dispose?: () => void }).dispose?.();
  }
}

/** How many leading tokens `a` and `b` share. */
export function commonPrefix(a: readonly number[], b: readonly number[]): number {
  const max = Math.min(a.length, b.length);
  let n = 0;
  while (n < max && a[n] === b[n]) n += 1;
  return n;
}
