import { InvalidOptionError } from '@inkling/scheduler';
import { type Rule, firstProblem, isBoolean, isObject, mustBe, oneOf, optional, unknownKey } from '@inkling/scheduler/engine';

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
  const lanes = (options as { lanes?: unknown }).lanes;
  const problem =
    unknownKey(options, top, 'hostWebLLM() ') ??
    (isObject(lanes) ? unknownKey(lanes, [], 'hostWebLLM() "lanes" ', ['pick', 'share']) : undefined) ??
    firstProblem(options, RULES, 'hostWebLLM() ');
  if (problem) throw new InvalidOptionError(problem);
}
