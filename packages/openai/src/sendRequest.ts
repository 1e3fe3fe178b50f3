import { MAX_TIMER_MS } from '@inkling/scheduler/engine';
import { type PoolTimers, type Priority } from '@inkling/scheduler';
import type { Endpoint } from './endpoint.js';
import { errorForResponse } from './errorForResponse.js';
import { ConnectTimeoutError, StreamInterruptedError, isRetryableStatus } from './errors.js';
import { fetchOrUnreachable } from './fetchOrUnreachable.js';
import { fetchWithin } from './fetchWithin.js';
import { redirectRefused } from './redirectRefused.js';
import { serializeBody } from './requestBody.js';
import { backoffMs, retryAfterMs } from './retryAfter.js';
import { wholeAnswer } from './wholeAnswer.js';
import type { Attempt, RequestContext } from './requestContext.js';

export type { Attempt, RequestContext } from './requestContext.js';
export type { RequestStats } from './requestStats.js';

/** How one request is sent, besides its path and body. */
export interface SendOptions {
  /** Default `'application/json'`. */
  readonly accept?: string;
  /** The request's own headers (the job's hints). */
  readonly headers?: Record<string, string>;
  /** `path` is under the server's root, not under `/v1` (llama.cpp's `/infill`). */
  readonly root?: boolean;
  /**
   * The job's band. An `interactive` job never waits for a retry: a busy
   * answer (429, 503) or any other retryable failure ends it at once with the
   * typed error, carrying the server's `Retry-After`, since by the time a
   * retry could go out the person has typed on. Other bands are retried.
   */
  readonly priority?: Priority;
}

/** Statuses a server sheds load with: a full queue (SGLang's `--max-queued-requests`, a gateway) or a rate limit. */
const BUSY = new Set([429, 503]);

/**
 * POSTs `body` to `path` and resolves with the OK response, or with
 * `undefined` when `signal` aborted first (the request is then gone).
 *
 * A body that is not JSON fails at once with a `BadRequestError`; nothing is
 * sent. A 408, 429, 502, 503 or 504, a `200` whose JSON is an error that
 * says to come back ("Model is loading"), and a connection dropped before any
 * answer (after the immediate resends of `fetchOrUnreachable`) are retried
 * up to `maxRetries` times: after the server's `Retry-After` plus a random
 * part of up to half of it (so that requests refused together do not come
 * back together), else after a backoff (`backoffMs`, jittered by `random`),
 * each wait at most `maxRetryDelayMs`. A server asking for longer ends the
 * job with a `RateLimitError` that carries its wait. An `interactive` job is
 * not retried (see `SendOptions.priority`). Waits are on the injected timers
 * and end at once on abort. Every other failure rejects with a typed error.
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
  options: SendOptions = {},
): Promise<Response | undefined> {
  const payload = serializeBody(body, context.endpoint, path);
  const { stats } = context;
  const cap = Math.min(context.maxRetryDelayMs, MAX_TIMER_MS);
  const interactive = options.priority === 'interactive';
  for (let attempt = 1; ; attempt += 1) {
    stats.attempts += 1;
    if (attempt > 1) stats.retries += 1;
    const outcome = await sendOnce(context, path, payload, signal, options);
    if (outcome.kind === 'ok') return outcome.response;
    if (outcome.kind === 'aborted') return undefined;
    const { retryable, advisedMs } = outcome;
    if (outcome.status !== undefined && BUSY.has(outcome.status)) stats.busy += 1;
    const waitRefused = retryable && advisedMs !== undefined && advisedMs > cap;
    if (retryable && interactive && !waitRefused) {
      stats.surfaced += 1;
      throw await outcome.error(false);
    }
    if (!retryable || waitRefused || attempt > context.maxRetries) throw await outcome.error(waitRefused);
    outcome.discard();
    const wait =
      advisedMs === undefined
        ? backoffMs(attempt, context.random, cap)
        : Math.min(cap, Math.round(advisedMs * (1 + Math.min(Math.max(context.random(), 0), 1) / 2)));
    if (!(await sleep(context.timers, wait, signal))) return undefined;
  }
}

async function sendOnce(
  context: RequestContext,
  path: string,
  payload: string,
  signal: AbortSignal,
  options: SendOptions,
): Promise<Attempt> {
  const { endpoint, timers, connectTimeoutMs } = context;
  const accept = options.accept ?? 'application/json';
  const headers = options.headers ?? {};
  const send = () =>
    fetchWithin(
      (linked) => endpoint.fetch(path, { method: 'POST', body: payload, signal: linked, accept, headers, root: options.root === true }),
      {
        timers,
        ms: connectTimeoutMs,
        signal,
        onTimeout: () => connectTimeout(endpoint, path, connectTimeoutMs),
      },
    );
  let response: Response | undefined;
  try {
    response = await fetchOrUnreachable(endpoint, send, path, signal);
  } catch (error) {
    // Dropped connections, after their immediate resends: the server is there, so try again later.
    if (!(error instanceof StreamInterruptedError)) throw error;
    return { kind: 'failed', retryable: true, advisedMs: undefined, error: async () => error, discard: () => {} };
  }
  if (!response) return { kind: 'aborted' };
  const refused = redirectRefused(response, endpoint, path);
  if (refused)
    return {
      kind: 'failed',
      retryable: false,
      status: refused.status,
      advisedMs: undefined,
      error: async () => refused,
      discard: () => {},
    };
  if (!response.ok) {
    const failed = response;
    const advisedMs = retryAfterMs(failed.headers, context.now());
    return {
      kind: 'failed',
      retryable: isRetryableStatus(failed.status),
      status: failed.status,
      advisedMs,
      error: (waitRefused) =>
        errorForResponse(failed, context, path, { retryAfter: advisedMs, waitRefused, interactive: options.priority === 'interactive' }),
      discard: () => void failed.body?.cancel().catch(() => {}),
    };
  }
  if (/text\/event-stream/i.test(response.headers.get('content-type') ?? '')) return { kind: 'ok', response };
  return wholeAnswer(response, context, path, signal);
}

/**
 * The error for a request that got no response headers in time. Not fatal:
 * the server may be slow rather than gone, and the engine's other requests go on.
 *
 * @example
 * throw connectTimeout(endpoint, '/chat/completions', 30_000);
 */
export function connectTimeout(endpoint: Endpoint, path: string, ms: number): ConnectTimeoutError {
  return new ConnectTimeoutError(
    `The server at ${endpoint.shown}${path} sent no answer within ${ms} ms of the request (connectTimeoutMs). Check that it is running and not overloaded or still loading the model (Ollama loads it on the first request); if it is only slow, raise connectTimeoutMs in openaiEngines().`,
    ms,
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
