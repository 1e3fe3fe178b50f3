import { InvalidOptionError } from '@inkling/scheduler';
import { checkDuration } from '@inkling/scheduler/engine';
import { resolvePriority } from './serverPriority.js';
import type { OpenAIEnginesOptions } from './types.js';

/** An HTTP header name (RFC 9110 token). */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/**
 * Throws an `InvalidOptionError` that names the first wrong option of `openaiEngines`.
 *
 * @example
 * validateOptions({ baseURL: 'localhost', model: 'm' }); // throws: baseURL needs http(s):// and /v1
 */
export function validateOptions(options: OpenAIEnginesOptions): void {
  if (typeof options !== 'object' || options === null) {
    throw new InvalidOptionError(
      "openaiEngines() takes an options object, e.g. openaiEngines({ baseURL: 'http://localhost:8000/v1', model: 'Qwen/Qwen2.5-7B-Instruct' }).",
    );
  }
  const { baseURL, model, apiKey, headers, concurrency, maxRetries, timers } = options;
  if (typeof baseURL !== 'string' || !/^https?:\/\/[^/]/i.test(baseURL)) {
    throw new InvalidOptionError(
      `openaiEngines() needs "baseURL", the server's API base with its /v1, e.g. 'http://localhost:8000/v1'; it got ${typeof baseURL === 'string' ? JSON.stringify(baseURL) : String(baseURL)}.`,
    );
  }
  if (typeof model !== 'string' || model.trim() === '') {
    throw new InvalidOptionError('openaiEngines() needs "model", the name the server knows the model by (GET /v1/models lists them).');
  }
  // The key's value is never quoted, even when it is wrong.
  if (apiKey !== undefined && typeof apiKey !== 'string') {
    throw new InvalidOptionError('openaiEngines() "apiKey" must be a string.');
  }
  if (
    headers !== undefined &&
    (typeof headers !== 'object' || headers === null || Object.values(headers).some((v) => typeof v !== 'string'))
  ) {
    throw new InvalidOptionError(
      'openaiEngines() "headers" must be an object of string values, e.g. { "OpenAI-Organization": "org-..." }.',
    );
  }
  // fetch would reject these with a TypeError on every request, which reads as "unreachable".
  const badHeader = Object.entries(headers ?? {}).find(([name, value]) => !HEADER_NAME.test(name) || /[\r\n\0]/.test(value));
  if (badHeader) {
    throw new InvalidOptionError(
      `openaiEngines() "headers" has a header fetch cannot send: ${JSON.stringify(badHeader[0])} (a name must be a token such as "X-Api-Key"; a value may not hold a line break).`,
    );
  }
  if (typeof apiKey === 'string' && /[\r\n\0]/.test(apiKey)) {
    throw new InvalidOptionError('openaiEngines() "apiKey" holds a line break; copy the key again without it.');
  }
  if (concurrency !== undefined && !(Number.isInteger(concurrency) && concurrency >= 1)) {
    throw new InvalidOptionError(
      `openaiEngines() "concurrency" must be a whole number, 1 or more (requests one engine sends at once); it got ${String(concurrency)}.`,
    );
  }
  if (maxRetries !== undefined && !(Number.isInteger(maxRetries) && maxRetries >= 0)) {
    throw new InvalidOptionError(`openaiEngines() "maxRetries" must be a whole number, 0 or more; it got ${String(maxRetries)}.`);
  }
  for (const key of ['maxRetryDelayMs', 'connectTimeoutMs', 'stallTimeoutMs', 'maxResponseMs'] as const) {
    checkDuration(options[key], `openaiEngines() "${key}"`);
  }
  for (const key of ['maxEventBytes', 'maxResponseBytes'] as const) {
    const bytes = options[key];
    if (bytes !== undefined && !(bytes === Number.POSITIVE_INFINITY || (Number.isInteger(bytes) && bytes >= 1))) {
      throw new InvalidOptionError(
        `openaiEngines() "${key}" must be a whole number of bytes, 1 or more, or Infinity for no limit; it got ${String(bytes)}.`,
      );
    }
  }
  if (timers !== undefined && (typeof timers?.setTimeout !== 'function' || typeof timers?.clearTimeout !== 'function')) {
    throw new InvalidOptionError(
      'openaiEngines() "timers" must have setTimeout and clearTimeout functions, e.g. { setTimeout, clearTimeout }.',
    );
  }
  const { sessionAffinity, slots, cacheSalt, reserveLane, fim } = options;
  if (sessionAffinity !== undefined) {
    const header = sessionAffinity?.header;
    if (
      typeof sessionAffinity !== 'object' ||
      sessionAffinity === null ||
      (header !== undefined && !(typeof header === 'string' && HEADER_NAME.test(header)))
    ) {
      throw new InvalidOptionError(
        `openaiEngines() "sessionAffinity" must be { promptCacheKey?: boolean, header?: a header name such as 'x-session-affinity' }; it got ${JSON.stringify(sessionAffinity)}.`,
      );
    }
  }
  if (slots !== undefined && slots !== 'auto' && !(Number.isInteger(slots) && slots >= 1)) {
    throw new InvalidOptionError(
      `openaiEngines() "slots" must be the server's slot count (its --parallel, 1 or more) or 'auto'; it got ${JSON.stringify(slots)}.`,
    );
  }
  if (cacheSalt !== undefined && !(typeof cacheSalt === 'string' && cacheSalt.length >= 1 && cacheSalt.length <= 1024)) {
    throw new InvalidOptionError('openaiEngines() "cacheSalt" must be a string of 1 to 1024 characters (vLLM\'s limits).');
  }
  if (reserveLane !== undefined && typeof reserveLane !== 'boolean') {
    throw new InvalidOptionError(`openaiEngines() "reserveLane" must be true or false; it got ${JSON.stringify(reserveLane)}.`);
  }
  if (fim !== undefined && fim !== 'completions' && fim !== 'infill') {
    throw new InvalidOptionError(`openaiEngines() "fim" must be 'completions' or 'infill'; it got ${JSON.stringify(fim)}.`);
  }
  resolvePriority(options.priority);
  for (const key of ['fetch', 'now', 'random'] as const) {
    if (options[key] !== undefined && typeof options[key] !== 'function') {
      throw new InvalidOptionError(`openaiEngines() "${key}" must be a function.`);
    }
  }
}
