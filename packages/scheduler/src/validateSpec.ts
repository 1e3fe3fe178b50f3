import { PRIORITY_ORDER } from './constants.js';
import { InvalidJobError } from './errors.js';
import { isAbortSignal } from './isAbortSignal.js';
import type { ChatCompletionRequest, ChatMessage } from './types.js';
import { type Rule, firstProblem, isBoolean, isFunction, isObject, isText, mustBe, oneOf, optional } from './rules.js';

const SPEC: readonly Rule[] = [
  ...['id', 'task', 'session', 'owner'].map((field): Rule => [field, optional(isText), 'a non-empty string']),
  ['priority', optional(oneOf(...PRIORITY_ORDER)), `one of ${PRIORITY_ORDER.map((p) => `"${p}"`).join(', ')}`],
  ['kind', optional(oneOf('chat', 'embedding', 'translation')), '"chat", "embedding" or "translation"'],
  ['preemptible', optional(isBoolean), 'true or false'],
  ['onChunk', optional(isFunction), 'a function'],
  ['signal', optional(isAbortSignal), 'an AbortSignal'],
];

const CHAT: readonly Rule[] = [
  ['params', isObject, 'the request, e.g. { messages: [{ role: "user", content: "Hi" }] }'],
  ['params.messages', (messages) => Array.isArray(messages) && messages.length > 0, 'a non-empty array of { role, content } messages'],
  ['params.max_tokens', (max) => max == null || (Number.isInteger(max) && (max as number) > 0), 'a positive whole number'],
];

const EMBEDDING: readonly Rule[] = [
  ['params.input', (input) => typeof input === 'string' || (Array.isArray(input) && input.length > 0), 'a string or a non-empty array'],
];

const TRANSLATION: readonly Rule[] = [
  ['params', isObject, 'the text and languages, e.g. { text: "Hello", from: "en", to: "fr" }'],
  ['params.text', (text) => typeof text === 'string', 'a string'],
  ['params.to', isText, 'a language such as "fr"'],
  ['params.from', optional(isText), 'a language such as "en", or left out to have it detected'],
];

const PARAMS = { chat: CHAT, embedding: EMBEDDING, translation: TRANSLATION } as const;

/**
 * Checks a job spec before the pool touches anything. Returns the problem as
 * an `InvalidJobError`, or `undefined` when the spec is sound.
 */
export function validateSpec(spec: unknown, isLiveId: (id: string) => boolean): InvalidJobError | undefined {
  const problem = isObject(spec)
    ? specProblem(spec as Record<string, unknown>, isLiveId)
    : mustBe('The job spec', 'an object such as { params: { messages } }', spec);
  return problem ? new InvalidJobError(problem) : undefined;
}

function specProblem(spec: Record<string, unknown>, isLiveId: (id: string) => boolean): string | undefined {
  const kind = (spec.kind ?? 'chat') as keyof typeof PARAMS;
  const chat = kind === 'chat';
  const problem = firstProblem(spec, SPEC, "The job's ") ?? firstProblem(spec, PARAMS[kind], "The job's ");
  if (problem) return problem;
  if (typeof spec.id === 'string' && isLiveId(spec.id)) {
    return `A job with id "${spec.id}" is already queued or running: give each job its own id, or none.`;
  }
  const messages: unknown[] = chat ? (spec.params as ChatCompletionRequest).messages : [];
  const bad = messages.findIndex((message) => typeof (message as ChatMessage | null)?.role !== 'string');
  return bad < 0 ? undefined : mustBe(`The job's "params.messages[${bad}]"`, 'an object with a "role"', messages[bad]);
}
