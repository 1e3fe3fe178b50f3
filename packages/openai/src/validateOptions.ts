import { InvalidOptionError } from '@inkling/scheduler';
import {
  type Rule,
  durationRule,
  firstProblem,
  isBoolean,
  isFunction,
  isObject,
  isString,
  isTimers,
  oneOf,
  optional,
  unknownKey,
  wholeNumber,
} from '@inkling/scheduler/engine';
import { HEADER_NAME, resolvePriority } from './serverPriority.js';
import type { OpenAIEnginesOptions } from './types.js';

/** A line break or NUL, which fetch refuses in a header value. */
const LINE_BREAK = /[\r\n\0]/;

/** The first header fetch would reject with a TypeError on every request (which reads as "unreachable"). */
const badHeader = (headers: unknown): [string, string] | undefined =>
  Object.entries((headers ?? {}) as Record<string, string>).find(([name, value]) => !HEADER_NAME.test(name) || LINE_BREAK.test(value));

/**
 * `openaiEngines`' options, checked in this order. A key, a header or a salt is
 * never quoted, even when it is wrong: those rules word their own sentence.
 */
const RULES: readonly Rule[] = [
  [
    'baseURL',
    (url) => typeof url === 'string' && /^https?:\/\/[^/]/i.test(url),
    "the server's API base with its /v1, e.g. 'http://localhost:8000/v1'",
  ],
  [
    'model',
    (model) => typeof model === 'string' && model.trim() !== '',
    'the name the server knows the model by (GET /v1/models lists them)',
  ],
  ['apiKey', optional(isString), () => 'must be a string.'],
  [
    'headers',
    optional((headers) => isObject(headers) && Object.values(headers).every(isString)),
    () => 'must be an object of string values, e.g. { "OpenAI-Organization": "org-..." }.',
  ],
  [
    'headers',
    (headers) => !badHeader(headers),
    (headers) =>
      `has a header fetch cannot send: ${JSON.stringify(badHeader(headers)?.[0])} (a name must be a token such as "X-Api-Key"; a value may not hold a line break).`,
  ],
  ['apiKey', (key) => !(isString(key) && LINE_BREAK.test(key)), () => 'holds a line break; copy the key again without it.'],
  ['concurrency', optional(wholeNumber(1)), 'a whole number, 1 or more (requests one engine sends at once)'],
  ['maxRetries', optional(wholeNumber(0)), 'a whole number, 0 or more'],
  ...['maxRetryDelayMs', 'connectTimeoutMs', 'stallTimeoutMs', 'maxResponseMs'].map((field) => durationRule(field)),
  ...['maxEventBytes', 'maxResponseBytes'].map((field): Rule => [
    field,
    optional((bytes) => bytes === Infinity || wholeNumber(1)(bytes)),
    'a whole number of bytes, 1 or more, or Infinity for no limit',
  ]),
  ['timers', optional(isTimers), 'an object with setTimeout and clearTimeout functions, e.g. { setTimeout, clearTimeout }'],
  [
    'sessionAffinity',
    optional(
      (affinity) =>
        isObject(affinity) && optional((header) => isString(header) && HEADER_NAME.test(header))((affinity as { header?: unknown }).header),
    ),
    "{ promptCacheKey?: boolean, header?: a header name such as 'x-session-affinity' }",
  ],
  [
    'slots',
    optional((slots) => slots === 'auto' || wholeNumber(1)(slots)),
    "the server's slot count (its --parallel, 1 or more) or 'auto'",
  ],
  [
    'cacheSalt',
    optional((salt) => isString(salt) && salt.length >= 1 && salt.length <= 1024),
    () => "must be a string of 1 to 1024 characters (vLLM's limits).",
  ],
  ['reserveLane', optional(isBoolean), 'true or false'],
  ['fim', optional(oneOf('completions', 'infill')), "'completions' or 'infill'"],
  ...['fetch', 'now', 'random'].map((field): Rule => [field, optional(isFunction), 'a function']),
];

/**
 * Throws an `InvalidOptionError` that names the first unknown or wrong option of
 * `openaiEngines` (`priority` is checked apart).
 *
 * @example
 * validateOptions({ baseURL: 'localhost', model: 'm' }); // throws: "baseURL" must be the server's API base with its /v1...
 */
export function validateOptions(options: OpenAIEnginesOptions): void {
  if (typeof options !== 'object' || options === null) {
    throw new InvalidOptionError(
      "openaiEngines() takes an options object, e.g. openaiEngines({ baseURL: 'http://localhost:8000/v1', model: 'Qwen/Qwen2.5-7B-Instruct' }).",
    );
  }
  const problem = unknownKey(options, RULES, 'openaiEngines() ', ['priority']) ?? firstProblem(options, RULES, 'openaiEngines() ');
  if (problem) throw new InvalidOptionError(problem);
  resolvePriority(options.priority);
}
