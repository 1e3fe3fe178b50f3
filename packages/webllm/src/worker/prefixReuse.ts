/**
 * Prefix reuse for WebLLM: the engine worker keeps the longest common token
 * prefix of the KV cache between two requests instead of clearing it, pops
 * the rest and prefills only the new tail. WebLLM (up to 0.2.86 at least)
 * keeps the cache only for an exact multi-round continuation; every other
 * request clears it and reads the whole prompt again, which is what makes a
 * ghost-text keystroke on a long note cost a full prefill.
 *
 * It reaches into WebLLM's pipeline (`LLMChatPipeline`), so every hook is
 * checked before it is installed (`checkPipeline`, in `prefixReuseCheck.ts`):
 * the methods it wraps, the calls their bodies must make, one plain KV cache,
 * no sliding window, TVM's `vm.builtin.kv_state_popn`. Anything else, and the engine runs as WebLLM
 * wrote it (a full reset per request) with the reason in the load log. At
 * run time it keeps its own record of the tokens in the cache and reuses
 * nothing unless that record's length equals WebLLM's own count
 * (`filledKVCacheLength`); an image, an error or any path it does not see
 * ends in a real reset, never in a prompt read on top of stale tokens.
 *
 * The hooks are own properties of the one pipeline instance; WebLLM's
 * classes are not touched.
 */

import { type ReuseFn as Fn, type ReusePipeline as Pipeline, checkPipeline } from './prefixReuseCheck.js';
import { pipelineOf } from './webllmPipeline.js';

/** What one prefill did: prompt tokens kept from the cache, and tokens read. */
export interface PrefillRecord {
  cachedTokens: number;
  prefilledTokens: number;
}

/** The switch and the readings of one engine's prefix reuse. */
export interface PrefixReuse {
  /** Whether the hooks are installed (the pipeline passed every check). */
  readonly active: boolean;
  /** Why reuse is off, when it is; `undefined` when it is on. */
  readonly reason: string | undefined;
  /** On by default where active; off makes every request a full reset, as in WebLLM. */
  enabled: boolean;
  /** The next prefill belongs to a new request: it may keep a prefix (call before its first `next()`). */
  arm(): void;
  /** What the latest prefill did, or `undefined` before any. */
  readonly last: PrefillRecord | undefined;
}

/** Prefix reuse that is off, saying why. */
export function noPrefixReuse(reason: string): PrefixReuse {
  return { active: false, reason, enabled: false, arm() {}, last: undefined };
}

/**
 * Installs prefix reuse on the pipeline WebLLM loaded for `model` in
 * `engine`, or says why it cannot (`active` false, `reason`).
 *
 * @example
 * await engine.reload(model);
 * const reuse = installPrefixReuse(engine, model);
 * reuse.arm(); // before each request's first next()
 */
export function installPrefixReuse(engine: object, model: string): PrefixReuse {
  const pipeline = pipelineOf(engine, model);
  const reason = checkPipeline(pipeline, Object.getPrototypeOf(engine));
  if (reason !== undefined) return noPrefixReuse(reason);
  let popN: Fn;
  const { tvm } = pipeline as Pipeline;
  try {
    // TVM tracks what getGlobalFunc returns in the current scope: open one, keep the function.
    tvm.beginScope();
    try {
      popN = tvm.detachFromCurrentScope(tvm.getGlobalFunc('vm.builtin.kv_state_popn'));
    } finally {
      tvm.endScope();
    }
  } catch (error) {
    return noPrefixReuse(
      `the model library's runtime gives no vm.builtin.kv_state_popn (${error instanceof Error ? error.message : String(error)})`,
    );
  }
  return new Hooks(pipeline as Pipeline, popN);
}

class Hooks implements PrefixReuse {
  enabled = true;
  last: PrefillRecord | undefined;
  #active = true;
  #reason: string | undefined;
  readonly #p: Pipeline;
  readonly #popN: Fn;
  readonly #resetKVCache: () => void;
  /** The tokens the KV cache holds, in order; `undefined`: not known (then nothing is reused). */
  #tokens: number[] | undefined = [];
  /** Kept across a reset for the next prefill to compare with. */
  #kept: number[] | undefined;
  /** The cache holds tokens that `filledKVCacheLength` (0 after the kept reset) does not count. */
  #stale = false;
  #armed = false;
  /** Set while resetChat runs for an armed request: resetKVCache then keeps the cache. */
  #keeping = false;

  constructor(p: Pipeline, popN: Fn) {
    this.#p = p;
    this.#popN = popN;
    const resetChat = p.resetChat;
    const resetKVCache = p.resetKVCache;
    const getInputData = p.getInputData;
    const embedAndForward = p.embedAndForward;
    this.#resetKVCache = () => resetKVCache.call(p);
    p.resetKVCache = () => {
      if (this.#keeping) return;
      this.#forget([]);
      resetKVCache.call(p);
    };
    p.resetChat = (...args: unknown[]) => this.#resetChat(() => resetChat.apply(p, args));
    p.getInputData = () => {
      const result = getInputData.call(p);
      return result instanceof Promise ? result.then((r: unknown) => this.#trim(r)) : this.#trim(result);
    };
    p.embedAndForward = async (inputData, length) => {
      const before = p.filledKVCacheLength;
      try {
        const logits = await embedAndForward.call(p, inputData, length);
        this.#record(inputData, before);
        return logits;
      } catch (error) {
        this.#tokens = undefined;
        throw error;
      }
    };
  }

  get active(): boolean {
    return this.#active;
  }

  get reason(): string | undefined {
    return this.#reason;
  }

  arm(): void {
    this.#armed = this.enabled && this.#active;
    this.last = undefined;
  }

  #resetChat(reset: () => void): void {
    const tokens = this.#tokens;
    const reusable = this.#armed && tokens !== undefined && tokens.length > 0 && tokens.length === this.#p.filledKVCacheLength;
    if (!reusable) {
      this.#armed = false;
      reset();
      return;
    }
    this.#keeping = true;
    try {
      reset();
    } finally {
      this.#keeping = false;
    }
    // resetChat set filledKVCacheLength to 0; the cache still holds `tokens` until the prefill trims it.
    this.#kept = tokens;
    this.#tokens = undefined;
    this.#stale = true;
  }

  /** The prompt WebLLM is about to prefill, cut to what the cache does not hold yet. */
  #trim(result: unknown): unknown {
    const kept = this.#kept;
    const armed = this.#armed;
    this.#kept = undefined;
    this.#armed = false;
    if (!Array.isArray(result) || !Array.isArray(result[0])) {
      if (this.#stale) this.#clear();
      return result;
    }
    const [inputData, ...rest] = result as [unknown[], ...unknown[]];
    const p = this.#p;
    const total = inputData.reduce<number>((n, d) => n + (Array.isArray(d) ? d.length : 0), 0);
    if (kept === undefined) {
      // Either a clean cache, a continuation WebLLM keeps itself, or (after an error between reset and prefill) stale tokens.
      if (this.#stale) this.#clear();
      this.last = { cachedTokens: p.filledKVCacheLength, prefilledTokens: total };
      return result;
    }
    const tokens = inputData.length === 1 && Array.isArray(inputData[0]) ? (inputData[0] as number[]) : undefined;
    if (!armed || tokens === undefined || !tokens.every((t) => typeof t === 'number')) {
      // An image in the prompt, or a shape not known: read it all.
      this.#clear();
      this.last = { cachedTokens: 0, prefilledTokens: total };
      return result;
    }
    // At most all but one token: the prefill must still produce the logits of the last one.
    const max = Math.min(kept.length, tokens.length - 1);
    let n = 0;
    while (n < max && kept[n] === tokens[n]) n += 1;
    if (n === 0) {
      this.#clear();
      this.last = { cachedTokens: 0, prefilledTokens: tokens.length };
      return result;
    }
    try {
      if (kept.length > n) {
        p.tvm.beginScope();
        try {
          this.#popN(p.kvCache as never, p.tvm.scalar(0, 'int64') as never, p.tvm.scalar(kept.length - n, 'int32') as never);
        } finally {
          p.tvm.endScope();
        }
      }
    } catch (error) {
      this.#disable(`popping the KV cache failed (${error instanceof Error ? error.message : String(error)})`);
      this.#clear();
      this.last = { cachedTokens: 0, prefilledTokens: tokens.length };
      return result;
    }
    p.filledKVCacheLength = n;
    this.#tokens = tokens.slice(0, n);
    this.#stale = false;
    this.last = { cachedTokens: n, prefilledTokens: tokens.length - n };
    return [[tokens.slice(n)], ...rest];
  }

  /** What went through the model is what the cache now holds. */
  #record(inputData: unknown[], before: number): void {
    const tokens = this.#tokens;
    if (tokens === undefined) return;
    if (this.#stale || tokens.length !== before) {
      this.#tokens = undefined;
      return;
    }
    for (const d of inputData) {
      if (!Array.isArray(d)) {
        this.#tokens = undefined;
        return;
      }
      for (const t of d as number[]) tokens.push(t);
    }
  }

  /** A real reset of the cache, as WebLLM does it. */
  #clear(): void {
    this.#resetKVCache();
    this.#p.filledKVCacheLength = 0;
    this.#forget([]);
  }

  #forget(tokens: number[] | undefined): void {
    this.#tokens = tokens;
    this.#kept = undefined;
    this.#stale = false;
  }

  #disable(reason: string): void {
    this.#active = false;
    this.#reason = reason;
    this.enabled = false;
  }
}
