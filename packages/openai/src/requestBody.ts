import type { Endpoint } from './endpoint.js';
import { BadRequestError } from './errors.js';
import { redactedCopy } from './redactedCopy.js';

/**
 * `body` as JSON text, or a `BadRequestError` (status `0`: nothing was sent)
 * that names the value JSON cannot hold (a `BigInt`, a circular reference)
 * by its path in the job's params. Only this job fails: the request never
 * left, and the server and the engine are fine.
 *
 * @example
 * serializeBody({ messages, seed: 7n }, endpoint, '/chat/completions'); // throws: params.seed is a BigInt ...
 */
export function serializeBody(body: unknown, endpoint: Endpoint, path: string): string {
  try {
    return JSON.stringify(body);
  } catch (error) {
    let problem: string | undefined;
    try {
      problem = findUnserializable(body);
    } catch {
      // Nested too deep to walk: JSON's own message says so.
    }
    problem ??= endpoint.redact(error instanceof Error ? error.message : String(error));
    throw new BadRequestError(
      `The request to ${endpoint.shown}${path} could not be sent as JSON: ${problem}. Change the job's params to plain JSON values (numbers, strings, arrays, objects), then submit it again.`,
      0,
      { cause: redactedCopy(error, (text) => endpoint.redact(text)), retryable: false },
    );
  }
}

interface Ancestor {
  value: object;
  path: string;
}

/** The first value under `value` that JSON cannot hold, described with its path. */
function findUnserializable(value: unknown, path = 'params', ancestors: Ancestor[] = []): string | undefined {
  if (typeof value === 'bigint') return `${path} is a BigInt, which JSON has no form for; pass a number or a string`;
  if (typeof value !== 'object' || value === null) return undefined;
  // A value with its own toJSON decides its own form; its failure is reported as thrown.
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return undefined;
  const loop = ancestors.find((a) => a.value === value);
  if (loop) return `${path} refers back to ${loop.path} (a circular structure); pass a copy without the loop`;
  ancestors.push({ value, path });
  try {
    for (const [key, child] of Object.entries(value)) {
      const at = Array.isArray(value)
        ? `${path}[${key}]`
        : /^[A-Za-z_$][\w$]*$/.test(key)
          ? `${path}.${key}`
          : `${path}[${JSON.stringify(key)}]`;
      const found = findUnserializable(child, at, ancestors);
      if (found) return found;
    }
  } finally {
    ancestors.pop();
  }
  return undefined;
}
