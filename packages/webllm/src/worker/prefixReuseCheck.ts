/**
 * The load-time check of prefix reuse (`prefixReuse.ts`): the WebLLM
 * pipeline and engine methods its hooks wrap must make the calls the hooks
 * were written for, with one plain KV cache, no sliding window and the TVM
 * functions they call. Reads only source text and fields (property names,
 * which survive bundlers and minifiers).
 */

import { bodyOf } from './webllmPipeline.js';

/** A function of the pipeline or of TVM's registry, as the hooks call it. */
export type ReuseFn = (...args: never[]) => unknown;

/** The part of WebLLM's `LLMChatPipeline` the hooks use (0.2.79–0.2.86 shapes). */
export interface ReusePipeline {
  filledKVCacheLength: number;
  artifact?: unknown;
  slidingWindowSize?: number;
  kvCache?: unknown;
  rnnState?: unknown;
  tvm: {
    getGlobalFunc(name: string): ReuseFn;
    detachFromCurrentScope<T>(value: T): T;
    scalar(value: number, dtype: string): unknown;
    beginScope(): void;
    endScope(): void;
  };
  resetChat(...args: unknown[]): void;
  resetKVCache(): void;
  getInputData(): unknown;
  embedAndForward(inputData: unknown[], length: number): Promise<unknown>;
}

/**
 * What each hooked method's body must do, so a WebLLM that moved it is caught
 * at load, not at run. Property names only, compared without white space:
 * they survive a bundler's renaming and a minifier (local names do not).
 */
const BODIES: Record<string, readonly string[]> = {
  resetChat: ['.resetKVCache()', '.filledKVCacheLength=0'],
  resetKVCache: ['.fclearKVCaches('],
  embedAndForward: ['.filledKVCacheLength+='],
  getInputData: ['.filledKVCacheLength', '.getPromptArrayLastRound(', '.getPromptArray('],
};
/**
 * The engine's side: a request that is not a continuation resets the chat.
 * 0.2.79 does it in `prefill`; 0.2.86 moved it to `preparePrefillInput`,
 * which `prefill` calls first.
 */
const ENGINE_PREFILL = ['.getConversationObject()', '.resetChat()', '.setConversation('];
const PREPARE_CALL = '.preparePrefillInput(';

/**
 * Why `pipeline` (and the engine whose prototype is `engine`) cannot carry
 * the hooks, or `undefined` when it can. Reads only source text and fields:
 * safe on any object.
 *
 * @example
 * checkPipeline(pipeline, MLCEngine.prototype); // undefined on WebLLM 0.2.79 and 0.2.86
 */
export function checkPipeline(pipeline: unknown, engine: unknown): string | undefined {
  if (typeof pipeline !== 'object' || pipeline === null)
    return 'this WebLLM keeps its pipeline elsewhere (no loadedModelIdToPipeline entry)';
  const p = pipeline as Record<string, unknown>;
  for (const [name, calls] of Object.entries(BODIES)) {
    const method = p[name];
    if (typeof method !== 'function') return `this WebLLM's pipeline has no ${name}()`;
    const body = bodyOf(method);
    const missing = calls.find((call) => !body.includes(call));
    if (missing !== undefined) return `this WebLLM's ${name}() does not do what the hooks expect (no "${missing}")`;
  }
  const reason = checkEnginePrefill(engine);
  if (reason !== undefined) return reason;
  if (typeof p.filledKVCacheLength !== 'number') return "this WebLLM's pipeline counts no filledKVCacheLength";
  if (p.kvCache === undefined || p.kvCache === null) return 'the model has no paged KV cache';
  if (p.artifact !== undefined && p.artifact !== null)
    return "the model is one of WebLLM's artifact models, whose prefill does not read getInputData()";
  if (p.rnnState !== undefined && p.rnnState !== null) return 'the model keeps a recurrent state, which cannot be popped';
  if (typeof p.slidingWindowSize === 'number' && p.slidingWindowSize !== -1)
    return 'the model uses a sliding window (with attention sinks), where popping the cache does not apply';
  const tvm = p.tvm as Partial<ReusePipeline['tvm']> | undefined;
  const needs = ['getGlobalFunc', 'scalar', 'detachFromCurrentScope', 'beginScope', 'endScope'] as const;
  if (needs.some((name) => typeof tvm?.[name] !== 'function')) return `this WebLLM's TVM runtime lacks one of ${needs.join(', ')}`;
  return undefined;
}

/** Why the engine's prefill (directly, or through the one helper it calls first) cannot be hooked. */
function checkEnginePrefill(engine: unknown): string | undefined {
  const proto = (typeof engine === 'object' && engine !== null ? engine : {}) as Record<string, unknown>;
  if (typeof proto.prefill !== 'function') return "this WebLLM's engine has no prefill()";
  let body = bodyOf(proto.prefill);
  let where = 'prefill()';
  if (body.includes(PREPARE_CALL)) {
    if (typeof proto.preparePrefillInput !== 'function')
      return "this WebLLM's engine prefill() calls a preparePrefillInput() it does not have";
    body = bodyOf(proto.preparePrefillInput);
    where = 'preparePrefillInput()';
  }
  const missing = ENGINE_PREFILL.find((call) => !body.includes(call));
  return missing === undefined ? undefined : `this WebLLM's engine ${where} does not do what the hooks expect (no "${missing}")`;
}
