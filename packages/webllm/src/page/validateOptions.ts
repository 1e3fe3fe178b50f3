import { InvalidOptionError } from '@inkling/scheduler';
import {
  type Rule,
  firstProblem,
  isBoolean,
  isFunction,
  isObject,
  isText,
  mustBe,
  optional,
  unknownKey,
  wholeNumber,
} from '@inkling/scheduler/engine';

/** An option `webllmEngines` does not take, but says where it goes (checked first, and not listed among its options). */
const NOT_TAKEN: readonly Rule[] = [
  [
    'webllm',
    (module) => module === undefined,
    () =>
      "is not taken: WebLLM runs only in the engine worker. To pick its version, pass a `worker` whose file calls hostWebLLM(globalThis, { MLCEngine, prebuiltAppConfig }) with that version's exports.",
  ],
];

/** `webllmEngines`' options, checked in this order. */
const RULES: readonly Rule[] = [
  ['model', isText, 'the model to load, e.g. "Qwen2.5-0.5B-Instruct-q4f32_1-MLC" (modelCatalogue and defaultModel() list good ones)'],
  ['worker', optional(isFunction), 'a function (index) => Worker'],
  ['prefixReuse', optional(isBoolean), 'true or false'],
  ['lanes', optional(wholeNumber(1, 64)), 'a whole number from 1 to 64'],
  [
    'sizeBytes',
    optional((bytes) => Number.isSafeInteger(bytes) && (bytes as number) > 0),
    "the weights' size as a whole number of bytes above 0",
  ],
  [
    'appConfig',
    optional((config) => Array.isArray((config as { model_list?: unknown } | null)?.model_list)),
    "an object with a model_list array, like WebLLM's AppConfig",
  ],
];

/** `webllmEngines`' options no rule checks (WebLLM's own, or typed enough). */
const MORE = ['cache', 'engineConfig', 'chatOptions', 'gpu', 'timers', 'storage'];

/**
 * Throws an `InvalidOptionError` naming the first unknown or wrong option of `webllmEngines`
 * (`WebLLMEnginesOptions`; typed `unknown` here so this file imports nothing back).
 *
 * @example
 * validateOptions({ model: '' }); // throws: webllmEngines() "model" must be the model to load, e.g. ...
 */
export function validateOptions(options: unknown): void {
  const problem = isObject(options)
    ? (firstProblem(options, NOT_TAKEN, 'webllmEngines() ') ??
      unknownKey(options, RULES, 'webllmEngines() ', MORE) ??
      firstProblem(options, RULES, 'webllmEngines() '))
    : mustBe('webllmEngines() options', 'an object such as { model: "Qwen2.5-0.5B-Instruct-q4f32_1-MLC" }', options);
  if (problem) throw new InvalidOptionError(problem);
}
