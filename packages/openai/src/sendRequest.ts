import type { PoolTimers } from '@inkling/scheduler';
import type { Endpoint } from './endpoint.js';
import { errorForResponse } from './errorForResponse.js';
import { ServerUnreachableError } from './errors.js';
import { backoffMs, retryAfterMs } from './retryAfter.js';

/** What `sendRequest` needs besides the request itself. */
export interface RequestContext {
  readonly endpoint: Endpoint;
  readonly timers: PoolTimers;
  readonly now: () => number;
  readonly maxRetries: number;
  readonly maxRetryDelayMs: number;
}

/**
 * POSTs `body` to `path` and resolves with the OK response, or with
 * `undefined` when `signal` aborted first (the request is then gone). A 429,
 * or a 503 that says when to come back, is retried up to `maxRetries` times
 * after the wait the server asks for, if it is no longer than
 * `maxRetryDelayMs`; waits are on the injected timers and end at once on
 * abort. Every other failure rejects with a typed error.
 *
 * @example
 * const response = await sendRequest(context, '/chat/completions', body, signal);
 * if (!response) return; // aborted
 */
export async function sendRequest(
  context: RequestContext,
  path: string,
  body: unknown,
  signal: AbortSignal,
  accept = 'application/json',
): Promise<Response | undefined> {
  const { endpoint } = context;
  for (let attempt = 1; ; attempt += 1) {
    const response = await fetchOrUnreachable(endpoint, () => endpoint.fetch(path, { method: 'POST', body, signal, accept }), path, signal);
    if (!response) return undefined;
    if (response.ok) return response;

    const advised = retryAfterMs(response.headers, context.now());
    const retryable = response.status === 429 || (response.status === 503 && advised !== undefined);
    const wait = advised ?? backoffMs(attempt);
    if (retryable && attempt <= context.maxRetries && wait <= context.maxRetryDelayMs) {
      void response.body?.cancel().catch(() => {});
      if (!(await sleep(context.timers, wait, signal))) return undefined;
      continue;
    }
    throw await errorForResponse(response, endpoint, path, advised);
  }
}

/**
 * Calls `send`, and once more at once if it rejects: a server may close an
 * idle kept-alive connection just as a request goes out on it (seen with
 * llama.cpp's server under a batch), which fails the request before any byte
 * of an answer, like an unreachable server would. A second failure is taken
 * at its word. Resolves `undefined` when `signal` aborted.
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
      if (attempt >= 2) throw unreachable(endpoint, path, error);
    }
  }
}

/**
 * The error for a `fetch` that rejected: nothing answered. In a browser a
 * CORS refusal looks exactly like this, so the message names it too.
 *
 * @example
 * try { await endpoint.fetch('/models', { method: 'GET' }); } catch (e) { throw unreachable(endpoint, '/models', e); }
 */
export function unreachable(endpoint: Endpoint, path: string, error: unknown): ServerUnreachableError {
  const code = (error as { cause?: { code?: unknown } } | null)?.cause?.code;
  const reason = endpoint.redact(
    [error instanceof Error ? error.message : String(error), typeof code === 'string' ? code : undefined]
      .filter(Boolean)
      .join(': '),
  );
  // A `fetch` of your own may name the URL, query key included, in its error:
  // then the cause is a redacted copy rather than the error itself.
  const message = error instanceof Error ? error.message : String(error);
  const cause = endpoint.redact(message) === message ? error : new Error(endpoint.redact(message));
  return new ServerUnreachableError(
    `Could not reach the server at ${endpoint.shown}${path} (${reason}). Check that it is running and that baseURL is right; in a browser, also that it allows this page's origin (CORS). Inkling holds queued jobs and tries again; once it gives up, call pool.load().`,
    { cause },
  );
}

/** Waits `ms` on `timers`; resolves `false` at once if `signal` aborts first. */
function sleep(timers: PoolTimers, ms: number, signal: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal.aborted) {
      resolve(false);
      return;
    }
    const onAbort = () => {
      timers.clearTimeout(handle);
      resolve(false);
    };
    const handle = timers.setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
