/**
 * What a worker passes to `hostWebLLM`: the endpoint it serves on, the
 * WebLLM module it runs, the options, and the check of those options.
 */

import { InvalidOptionError } from '@inkling/scheduler';
import { type Rule, firstProblem, isBoolean, isObject, mustBe, oneOf, optional, unknownKey } from '@inkling/scheduler/engine';
import type { GPULike } from '../detectWebGPU.js';
import type { WebLLMModule } from '../types.js';
import type { LaneOptions } from './laneEngine.js';
import type { XGrammar } from './laneGrammar.js';

/** The worker's side of the channel: a worker's global scope fits, and so does a Node `MessagePort` adapter. */
export interface WorkerEndpoint {
  postMessage(message: unknown): void;
  addEventListener(type: 'message', listener: (event: MessageEvent) => void): void;
}

/** The part of `@mlc-ai/web-llm` the engine worker needs. */
export type WebLLMEngineModule = Pick<WebLLMModule, 'MLCEngine' | 'prebuiltAppConfig'>;

/** Options of `hostWebLLM`. */
export interface HostWebLLMOptions {
  /**
   * The WebGPU entry point checked before each load (an adapter, `shader-f16`
   * for an f16 model). Default: the worker's own `navigator.gpu`, looked up
   * when a load starts.
   */
  gpu?: GPULike | null;
  /**
   * Where the lanes' JSON-schema jobs get xgrammar: a function that imports
   * it, called when an engine of lanes loads; `loadXGrammar` from
   * `@inkling/webllm/xgrammar` imports `@mlc-ai/web-xgrammar` (its wasm is
   * inside the package: nothing is fetched from elsewhere); a worker of
   * your own passes it (`@inkling/webllm/worker` does not: Turbopack cannot
   * bundle xgrammar). Default: none, and JSON-schema jobs run on WebLLM's own
   * one-sequence path, one at a time. (The page's entry never imports
   * xgrammar: only a worker that asks for it.)
   */
  xgrammar?: (() => Promise<XGrammar>) | null;
  /**
   * How an engine of lanes runs its steps. `pick`: where greedy rows are
   * picked, `'gpu'` (a compute shader takes each row's largest logit, one
   * token id per row comes back) or `'cpu'` (every row's logits come back);
   * `share`: a job whose prompt shares a document with another lane forks
   * that lane's pages instead of reading the document again. Both are
   * measured in `tools/real-engine` (README, "Lanes"). Default:
   * `{ pick: 'gpu', share: true }` (the GPU pick falls back to the CPU where
   * the shader cannot start).
   */
  lanes?: Pick<LaneOptions, 'pick' | 'share'>;
}

/** `hostWebLLM`'s options, checked in this order (`lanes.pick`: a field of `lanes`). */
const RULES: readonly Rule[] = [
  [
    'gpu',
    (gpu) => gpu === undefined || gpu === null || typeof gpu === 'object',
    "a WebGPU entry point (the worker's navigator.gpu) or null",
  ],
  [
    'xgrammar',
    (load) => load === undefined || load === null || typeof load === 'function',
    'a function that imports xgrammar (loadXGrammar from @inkling/webllm/xgrammar) or null',
  ],
  ['lanes', optional(isObject), 'an object such as { pick: "gpu", share: true }'],
  ['lanes.pick', optional(oneOf('gpu', 'cpu')), '"gpu" or "cpu"'],
  ['lanes.share', optional(isBoolean), 'true or false'],
];

/**
 * Throws an `InvalidOptionError` naming the first unknown or wrong option of
 * `hostWebLLM` (`HostWebLLMOptions`, typed `unknown` here).
 *
 * @example
 * validateHostOptions({ lanes: { pick: 'tpu' } }); // throws: hostWebLLM() "lanes.pick" must be "gpu" or "cpu", ...
 */
export function validateHostOptions(options: unknown): void {
  if (!isObject(options))
    throw new InvalidOptionError(mustBe('hostWebLLM() options', 'an object such as { xgrammar: loadXGrammar }', options));
  const top = RULES.filter(([field]) => !field.includes('.'));
  const laneKeys = RULES.flatMap(([field]) => (field.startsWith('lanes.') ? [field.slice('lanes.'.length)] : []));
  const lanes = (options as { lanes?: unknown }).lanes;
  const problem =
    unknownKey(options, top, 'hostWebLLM() ') ??
    (isObject(lanes) ? unknownKey(lanes, [], 'hostWebLLM() "lanes" ', laneKeys) : undefined) ??
    firstProblem(options, RULES, 'hostWebLLM() ');
  if (problem) throw new InvalidOptionError(problem);
}
