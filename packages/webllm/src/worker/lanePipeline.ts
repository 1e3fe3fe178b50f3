/**
 * What the lanes need of WebLLM's loaded pipeline (`LLMChatPipeline`) and of
 * TVM's runtime, and the load-time check that the pipeline is one they were
 * written for: WebLLM 0.2.79's and 0.2.86's (with a model library of the
 * single-sequence ABI). Like the prefix-reuse guard it reads only fields and
 * source text (property names, which survive bundlers and minifiers).
 */

import { bodyOf } from './webllmPipeline.js';

/** A TVM tensor, as far as the lanes use one. */
export interface LaneTensor {
  readonly shape: number[];
  view(shape: number[]): LaneTensor;
  copyFrom(data: ArrayLike<number> | LaneTensor): LaneTensor;
  toArray(): Float32Array;
  dispose(): void;
}

/** A packed function of the model library or of TVM's registry. */
export type LaneFn = (...args: unknown[]) => unknown;

/** The part of TVM's JavaScript runtime the lanes call. */
export interface LaneTvm {
  beginScope(): void;
  endScope(): void;
  detachFromCurrentScope<T>(value: T): T;
  empty(shape: number[], dtype: string, device: unknown): LaneTensor;
  makeShapeTuple(shape: number[]): unknown;
  scalar(value: number, dtype: string): unknown;
  cpu(): unknown;
  getGlobalFunc(name: string): LaneFn;
}

/** A conversation of WebLLM (its class is reached through the pipeline's own instance). */
export interface LaneConversation {
  override_system_message?: string;
  config: { system_prefix_token_ids?: number[] | null; stop_str?: string[] };
  appendMessage(role: string, message: string, name?: string): void;
  appendReplyHeader(role: string): void;
  getPromptArray(config?: object): unknown[];
}

/** The part of WebLLM's `LLMChatPipeline` the lanes read (0.2.79–0.2.86 shapes). */
export interface LanePipeline {
  tvm: LaneTvm;
  vm: { getFunction(name: string): LaneFn };
  device: { sync(): Promise<void> };
  params: unknown;
  embed: LaneFn;
  prefill: LaneFn;
  decoding: LaneFn;
  prefillChunkSize: number;
  contextWindowSize: number;
  slidingWindowSize?: number;
  artifact?: unknown;
  rnnState?: unknown;
  kvCache?: unknown;
  resolvedModelABI?: { prefillABI?: string; decodeABI?: string };
  tokenizer: { encode(text: string): ArrayLike<number>; decode(ids: Int32Array): string };
  conversation: LaneConversation;
  config: {
    conv_template: object;
    conv_config?: object;
    temperature?: number;
    top_p?: number;
    presence_penalty?: number;
    frequency_penalty?: number;
    repetition_penalty?: number;
  };
  stopTokens: number[];
}

/**
 * What each pipeline method's body must contain, so that the lanes' own
 * prefill and prompt match WebLLM's. Property names, compared without white
 * space.
 */
const BODIES: Record<string, readonly string[]> = {
  // The model is run as (embeddings, KV state, params) around begin/end forward.
  embedAndForward: ['.fKVCacheBeginForward(', '.fKVCacheEndForward('],
  getTokensEmbeddings: ['.embed(', '.params)'],
  // The prompt: the system prefix tokens, then every part of the prompt array encoded.
  // (0.2.86 passes the chat config to getPromptArray; 0.2.79 takes no argument.)
  getInputData: ['.system_prefix_token_ids', '.getPromptArray(', '.tokenizer.encode('],
};
/** The last message goes in with appendMessage, then the assistant's header: in prefillStep (0.2.79) or forwardPrefill (0.2.86). */
const APPENDS = ['.appendMessage(', '.appendReplyHeader('];
/** 0.2.79 calls the library's functions directly; 0.2.86 through its model ABI. */
const DIRECT = ['.prefill(', '.decoding(', '.kvCache,'];
const THROUGH_ABI = ['.invokePrefill(', '.invokeDecode('];

const TVM_NEEDS = [
  'beginScope',
  'endScope',
  'detachFromCurrentScope',
  'empty',
  'makeShapeTuple',
  'scalar',
  'cpu',
  'getGlobalFunc',
] as const;

/**
 * WebLLM's own method `name` of the pipeline: its class's, not a hook an
 * engine hook (prefix reuse) set on the instance, whose body says nothing of
 * how WebLLM runs the model. A plain object's own method otherwise.
 */
function methodOf(p: Record<string, unknown>, name: string): unknown {
  const proto = Object.getPrototypeOf(p) as Record<string, unknown> | null;
  return proto !== null && proto !== Object.prototype && typeof proto[name] === 'function' ? proto[name] : p[name];
}

/**
 * Why lanes cannot run on `pipeline`, or `undefined` when they can. Reads
 * only source text and fields: safe on any object.
 *
 * @example
 * checkLanePipeline(pipeline); // undefined on WebLLM 0.2.79 and 0.2.86 with a single-ABI library
 */
export function checkLanePipeline(pipeline: unknown): string | undefined {
  if (typeof pipeline !== 'object' || pipeline === null)
    return 'this WebLLM keeps its pipeline elsewhere (no loadedModelIdToPipeline entry)';
  const p = pipeline as Record<string, unknown>;
  for (const [name, calls] of Object.entries(BODIES)) {
    const method = methodOf(p, name);
    if (typeof method !== 'function') return `this WebLLM's pipeline has no ${name}()`;
    const body = bodyOf(method);
    const missing = calls.find((call) => !body.includes(call));
    if (missing !== undefined) return `this WebLLM's ${name}() does not do what the lanes expect (no "${missing}")`;
  }
  const prefillStep = methodOf(p, 'prefillStep');
  const forwardPrefill = methodOf(p, 'forwardPrefill');
  if (typeof prefillStep !== 'function') return "this WebLLM's pipeline has no prefillStep()";
  const appending = bodyOf(prefillStep) + (typeof forwardPrefill === 'function' ? bodyOf(forwardPrefill) : '');
  const unappended = APPENDS.find((call) => !appending.includes(call));
  if (unappended !== undefined) return `this WebLLM's prefill does not build the prompt as the lanes expect (no "${unappended}")`;
  const forward = bodyOf(methodOf(p, 'embedAndForward'));
  if (THROUGH_ABI.every((call) => forward.includes(call))) {
    const abi = p.resolvedModelABI as LanePipeline['resolvedModelABI'];
    if (abi?.prefillABI !== 'single' || abi.decodeABI !== 'single')
      return `the model library's ABI is not the single-sequence one the lanes call (prefill ${String(abi?.prefillABI)}, decode ${String(abi?.decodeABI)})`;
  } else if (DIRECT.some((call) => !forward.includes(call))) {
    return "this WebLLM's embedAndForward() runs the model in a way the lanes were not written for";
  }
  if (p.artifact !== undefined && p.artifact !== null) return "the model is one of WebLLM's artifact models";
  if (p.rnnState !== undefined && p.rnnState !== null) return 'the model keeps a recurrent state';
  if (p.kvCache === undefined || p.kvCache === null) return 'the model has no paged KV cache';
  if (typeof p.slidingWindowSize === 'number' && p.slidingWindowSize !== -1) return 'the model uses a sliding window';
  for (const name of ['embed', 'prefill', 'decoding'] as const)
    if (typeof p[name] !== 'function') return `the pipeline has no ${name} function`;
  if (typeof p.prefillChunkSize !== 'number' || !(p.prefillChunkSize > 0)) return 'the pipeline has no prefill chunk size';
  if (typeof p.contextWindowSize !== 'number' || !(p.contextWindowSize > 0)) return 'the pipeline has no context window size';
  const tvm = p.tvm as Partial<Record<string, unknown>> | undefined;
  const lacking = TVM_NEEDS.find((name) => typeof tvm?.[name] !== 'function');
  if (lacking !== undefined) return `this WebLLM's TVM runtime has no ${lacking}()`;
  if (typeof (p.vm as { getFunction?: unknown } | undefined)?.getFunction !== 'function') return 'the pipeline has no virtual machine';
  const conversation = p.conversation as Partial<Record<string, unknown>> | undefined;
  for (const name of ['appendMessage', 'appendReplyHeader', 'getPromptArray'])
    if (typeof conversation?.[name] !== 'function') return `this WebLLM's conversation has no ${name}()`;
  const config = p.config as { conv_template?: unknown } | undefined;
  if (typeof config?.conv_template !== 'object' || config.conv_template === null) return 'the model config has no conversation template';
  const tokenizer = p.tokenizer as { encode?: unknown; decode?: unknown } | undefined;
  if (typeof tokenizer?.encode !== 'function' || typeof tokenizer.decode !== 'function') return 'the tokenizer cannot encode and decode';
  if (!Array.isArray(p.stopTokens)) return 'the pipeline has no stop tokens';
  return undefined;
}
