import { EngineError } from '@inkling/scheduler';
import type { Endpoint } from './endpoint.js';
import { ConnectTimeoutError, ServerUnreachableError, StreamInterruptedError } from './errors.js';
import { redactedCopy } from './redactedCopy.js';

/** Tries of a request whose connection was dropped before any answer. */
export const DROPPED_ATTEMPTS = 5;

/** Error codes that say nothing took the connection at all. */
const NOTHING_THERE = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ETIMEDOUT',
  'UND_ERR_CONNECT_TIMEOUT',
]);

/**
 * Calls `send` (a `fetch`) and tells apart the two ways it can reject before
 * any answer:
 *
 * - The connection was taken, then dropped (Node's fetch says
 *   `UND_ERR_SOCKET`, `ECONNRESET`...). A server may close a kept-alive
 *   connection that the client then reuses: llama.cpp's server does, without
 *   a `Connection: close`, whenever its fixed HTTP threads are taken (idle
 *   kept-alive connections hold them, and a batch fills the rest), and several
 *   pooled connections go dead at once (seen on the GPU machine). Such a
 *   request is sent again at once, up to `DROPPED_ATTEMPTS` tries, then fails
 *   with a `StreamInterruptedError` (not fatal: the server is there).
 * - Nothing took it (`ECONNREFUSED`, DNS, timeouts, or a browser's opaque
 *   `TypeError`, since browsers retry stale connections themselves). Tried
 *   twice, then `ServerUnreachableError`, fatal to the engine.
 *
 * Anything else a `fetch` of your own throws (not a `TypeError`, no system
 * error code) is not a failure to connect: it fails this request alone with
 * an `EngineError`, and the engine stays.
 *
 * A `ConnectTimeoutError` (from `fetchWithin`) is passed on as it is. Resolves
 * `undefined` when `signal` aborted.
 *
 * @example
 * const response = await fetchOrUnreachable(endpoint, () => endpoint.fetch('/models', { method: 'GET' }), '/models');
 */
export async function fetchOrUnreachable(
  endpoint: Endpoint,
  send: () => Promise<Response>,
  path: string,
  signal?: AbortSignal,
): Promise<Response | undefined> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await send();
    } catch (error) {
      if (signal?.aborted) return undefined;
      if (error instanceof ConnectTimeoutError) throw error;
      const code = errorCode(error);
      if (code !== undefined && !NOTHING_THERE.has(code)) {
        if (attempt < DROPPED_ATTEMPTS) continue;
        throw new StreamInterruptedError(
          `The server at ${endpoint.shown}${path} took the connection and closed it before answering, ${attempt} times in a row (${reason(endpoint, error)}). It is up but dropping connections: look at its log, its connection or thread limits (llama.cpp: --threads-http), and any proxy in between.`,
          0,
          { cause: safeCause(endpoint, error) },
        );
      }
      if (code === undefined && !(error instanceof TypeError)) {
        throw new EngineError(
          `The fetch given to openaiEngines() failed the request to ${endpoint.shown}${path} (${reason(endpoint, error)}). It did not say the server is unreachable, so only this job fails; check that fetch.`,
          { cause: safeCause(endpoint, error) },
        );
      }
      if (attempt >= 2) throw unreachable(endpoint, path, error);
    }
  }
}

/**
 * The error for a `fetch` that nothing answered. In a browser a CORS refusal
 * looks exactly like this, so the message names it too.
 *
 * @example
 * try { await endpoint.fetch('/models', { method: 'GET' }); } catch (e) { throw unreachable(endpoint, '/models', e); }
 */
export function unreachable(endpoint: Endpoint, path: string, error: unknown): ServerUnreachableError {
  return new ServerUnreachableError(
    `Could not reach the server at ${endpoint.shown}${path} (${reason(endpoint, error)}). Check that it is running and that baseURL is right; in a browser, also that it allows this page's origin (CORS). Inkling holds queued jobs and tries again; once it gives up, call pool.load().`,
    { cause: safeCause(endpoint, error) },
  );
}

/** Node's fetch puts the system error under `cause` (an `AggregateError` when it tried several addresses). */
function errorCode(error: unknown): string | undefined {
  const cause = (error as { cause?: { code?: unknown; errors?: Array<{ code?: unknown }> } } | null)?.cause;
  const code = cause?.code ?? cause?.errors?.[0]?.code;
  return typeof code === 'string' ? code : undefined;
}

function reason(endpoint: Endpoint, error: unknown): string {
  const code = errorCode(error);
  return endpoint.redact([error instanceof Error ? error.message : String(error), code].filter(Boolean).join(': '));
}

/**
 * Never the error itself: a `fetch` of your own may hang the request, and its
 * headers, on the error, or name the URL with its query key in the message.
 */
function safeCause(endpoint: Endpoint, error: unknown): Error {
  return redactedCopy(error, (text) => endpoint.redact(text));
}
