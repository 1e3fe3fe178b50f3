import type { PoolTimers } from '@inkling/scheduler';
import type { Endpoint } from './endpoint.js';
import { errorForResponse } from './errorForResponse.js';
import { fetchOrUnreachable } from './fetchOrUnreachable.js';
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
