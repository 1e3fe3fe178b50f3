import { JOB_KIND, PRIORITY_ORDER } from './constants.js';
import { InvalidJobError } from './errors.js';

const KINDS: readonly string[] = Object.values(JOB_KIND);
const PRIORITIES: readonly string[] = PRIORITY_ORDER;

/**
 * Checks a job spec before the pool touches anything. Returns the problem as
 * an `InvalidJobError`, or `undefined` when the spec is sound.
 */
export function validateSpec(
  spec: unknown,
  isLiveId: (id: string) => boolean,
): InvalidJobError | undefined {
  if (typeof spec !== 'object' || spec === null) {
    return new InvalidJobError(
      `submit() takes a job spec object such as { params: { messages: [...] } }; it got ${typeof spec === 'object' ? 'null' : typeof spec}.`,
    );
  }
  const s = spec as Record<string, unknown>;

  for (const key of ['id', 'task', 'session', 'owner'] as const) {
    if (s[key] !== undefined && (typeof s[key] !== 'string' || s[key] === '')) {
      return new InvalidJobError(`The job's "${key}" must be a non-empty string; it got ${show(s[key])}.`);
    }
  }
  if (typeof s.id === 'string' && isLiveId(s.id)) {
    return new InvalidJobError(
      `A job with id "${s.id}" is already queued or running. Give each job its own id, or leave "id" out to get a generated one.`,
    );
  }
  if (s.priority !== undefined && !PRIORITIES.includes(s.priority as string)) {
    return new InvalidJobError(
      `Unknown priority ${show(s.priority)}. Use one of ${PRIORITY_ORDER.map((p) => `"${p}"`).join(', ')}.`,
    );
  }
  if (s.kind !== undefined && !KINDS.includes(s.kind as string)) {
    return new InvalidJobError(`Unknown job kind ${show(s.kind)}. Use "chat" or "embedding".`);
  }
  if (s.preemptible !== undefined && typeof s.preemptible !== 'boolean') {
    return new InvalidJobError(`"preemptible" must be true or false; it got ${show(s.preemptible)}.`);
  }
  if (s.onChunk !== undefined && typeof s.onChunk !== 'function') {
    return new InvalidJobError(`"onChunk" must be a function; it got ${show(s.onChunk)}.`);
  }
  if (s.signal !== undefined && !isAbortSignal(s.signal)) {
    return new InvalidJobError(`"signal" must be an AbortSignal (from new AbortController().signal); it got ${show(s.signal)}.`);
  }
  return s.kind === JOB_KIND.EMBEDDING ? checkEmbeddingParams(s.params) : checkChatParams(s.params);
}

function checkChatParams(params: unknown): InvalidJobError | undefined {
  if (typeof params !== 'object' || params === null) {
    return new InvalidJobError(
      `A chat job needs "params" with the request, e.g. { params: { messages: [{ role: "user", content: "Hi" }] } }; it got ${show(params)}.`,
    );
  }
  const { messages, max_tokens: maxTokens } = params as Record<string, unknown>;
  if (!Array.isArray(messages) || messages.length === 0) {
    return new InvalidJobError(
      `A chat job's "params.messages" must be a non-empty array of { role, content } messages; it got ${show(messages)}.`,
    );
  }
  const bad = messages.findIndex((m) => typeof m !== 'object' || m === null || typeof m.role !== 'string');
  if (bad >= 0) {
    return new InvalidJobError(`"params.messages[${bad}]" must be an object with a "role"; it got ${show(messages[bad])}.`);
  }
  if (maxTokens !== undefined && maxTokens !== null && !(Number.isInteger(maxTokens) && (maxTokens as number) > 0)) {
    return new InvalidJobError(`"params.max_tokens" must be a positive whole number; it got ${show(maxTokens)}.`);
  }
  return undefined;
}

function checkEmbeddingParams(params: unknown): InvalidJobError | undefined {
  const input = (params as { input?: unknown } | null | undefined)?.input;
  const ok = typeof input === 'string' || (Array.isArray(input) && input.length > 0);
  if (typeof params !== 'object' || params === null || !ok) {
    return new InvalidJobError(
      `An embedding job needs "params.input", a string or a non-empty array, e.g. { kind: "embedding", params: { input: ["a", "b"] } }; it got ${show(params)}.`,
    );
  }
  return undefined;
}

function isAbortSignal(value: unknown): value is AbortSignal {
  if (typeof AbortSignal !== 'undefined' && value instanceof AbortSignal) return true;
  // Signals from another realm (an iframe, a test environment) fail instanceof.
  const v = value as Partial<AbortSignal> | null;
  return typeof v === 'object' && v !== null && typeof v.aborted === 'boolean' && typeof v.addEventListener === 'function';
}

function show(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (typeof value === 'function') return 'a function';
  try {
    const text = JSON.stringify(value);
    if (text === undefined) return String(value);
    return text.length > 60 ? `${text.slice(0, 57)}...` : text;
  } catch {
    return Object.prototype.toString.call(value);
  }
}
