/**
 * What can go wrong between an engine and an OpenAI-compatible server, one
 * class per thing a person would do differently.
 *
 * Which of these are fatal to the engine (the pool then ends every job on it,
 * holds the queue, and rebuilds the engine, which probes the server again):
 *
 * - `ServerUnreachableError` is, and only it. Nothing answered, so every job
 *   sent to this engine would fail the same way within milliseconds: a batch
 *   of 200 items would burn through the queue, each with the same error. The
 *   pool instead keeps the queue waiting, and the rebuild probes the server:
 *   back already, work goes on; still down, the pool's phase becomes `'error'`
 *   with this error until `pool.load()` is called again.
 * - The rest are not. The server is up and answered about this one request:
 *   a key it refuses (401/403) or a model it lacks (404) is a setting that a
 *   rebuilt engine would send again unchanged, so the error belongs to the job
 *   that hit it, where a hook shows it; counting it as a crash would also put
 *   "crashed" wording on a typo. A 5xx is one failed request (vLLM answers 500
 *   to a prompt it cannot take), a 408/429/502/503/504 is retried, a request
 *   whose params are not JSON was never sent, a slow answer
 *   (`ConnectTimeoutError`) may be the server's queue, and a cut or garbled
 *   stream is about one response: if the server really went away, the next
 *   request finds it unreachable, and that one is fatal.
 *
 * None of these messages, causes, stacks or fields (`requestId`, `location`)
 * holds the API key or the header values given: server text (reason phrases
 * and request ids included) is redacted by value before it is kept, a foreign error is kept only as a redacted copy, and
 * 401/403 bodies (which some servers fill with the key they refused) are not
 * read at all.
 */
import { EngineCrashedError, EngineError, type ErrorDevice, type ErrorKind } from '@inkling/scheduler';

/**
 * Nothing took the connection at `baseURL`, twice in a row: the server is
 * down, the address is wrong, or (in a browser) it does not allow this origin
 * (CORS). Fatal to the engine. A connection taken and then dropped is not
 * this (see `fetchOrUnreachable`).
 *
 * @example
 * if (pool.getSnapshot().error instanceof ServerUnreachableError) showOfflineBanner();
 */
export class ServerUnreachableError extends EngineCrashedError {
  override name = 'ServerUnreachableError';
  override readonly kind: ErrorKind = 'network';
  override readonly device: ErrorDevice = 'server';
}

/** What a `ServerResponseError` carries besides its message. */
export interface ServerResponseErrorOptions {
  cause?: unknown;
  /** The server's id for the request (`x-request-id` and the like), when it sent one. */
  requestId?: string | undefined;
  /** Whether sending the same request again later can succeed. Default: from `status` (see `isRetryableStatus`). */
  retryable?: boolean;
}

/** Statuses that say "not now" rather than "not this": 408, 429, 502, 503, 504. */
const RETRYABLE_STATUSES = new Set([408, 429, 502, 503, 504]);

/**
 * True for the statuses that `openaiEngines` retries, with backoff: a
 * timeout (408), a rate limit (429), and a gateway or server that is
 * overloaded or restarting (502, 503, 504). A plain 500 is not among them:
 * vLLM answers 500 to a prompt it cannot take, and that fails again.
 *
 * @example
 * isRetryableStatus(503); // true
 */
export function isRetryableStatus(status: number): boolean {
  return RETRYABLE_STATUSES.has(status);
}

/**
 * The server answered with an HTTP error status, or with an error where the
 * answer should be. `status` is that status (`0` for a request that was never
 * sent), `requestId` the server's id for the request when it gave one (quote
 * it to the server's operators), and `retryable` whether the same request may
 * succeed later.
 *
 * @example
 * if (result.error instanceof ServerResponseError && result.error.retryable) retryLater();
 */
export class ServerResponseError extends EngineError {
  override name = 'ServerResponseError';
  override readonly kind: ErrorKind = 'refused';
  override readonly device: ErrorDevice = 'server';
  readonly status: number;
  readonly requestId: string | undefined;
  override readonly retryable: boolean;

  constructor(message: string, status: number, options: ServerResponseErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.status = status;
    this.requestId = options.requestId;
    this.retryable = options.retryable ?? isRetryableStatus(status);
  }
}

/**
 * 401 or 403: the server refused the API key (or the key may not use this model).
 *
 * @example
 * if (result.error instanceof AuthenticationError) askForANewKey();
 */
export class AuthenticationError extends ServerResponseError {
  override name = 'AuthenticationError';
  override readonly kind: ErrorKind = 'setup';
}

/**
 * 404: the server has no such model (or `baseURL` misses its `/v1`).
 *
 * @example
 * if (result.error instanceof ServerModelNotFoundError) pickAnotherModel();
 */
export class ServerModelNotFoundError extends ServerResponseError {
  override name = 'ServerModelNotFoundError';
  override readonly kind: ErrorKind = 'model-not-found';
}

/**
 * 429 after the bounded retries were spent, or any retryable status (429,
 * 503...) whose `Retry-After` asks for a longer wait than `maxRetryDelayMs`.
 * `retryAfterMs` is the server's advice in milliseconds, if it gave any.
 *
 * @example
 * if (result.error instanceof RateLimitError) retryLater(result.error.retryAfterMs ?? 10_000);
 */
export class RateLimitError extends ServerResponseError {
  override name = 'RateLimitError';
  readonly retryAfterMs: number | undefined;

  constructor(message: string, status: number, retryAfterMs: number | undefined, options: ServerResponseErrorOptions = {}) {
    super(message, status, { retryable: true, ...options });
    this.retryAfterMs = retryAfterMs;
  }
}

/**
 * A 5xx status, or an error the server reported inside a stream it had begun.
 *
 * @example
 * if (result.error instanceof ServerError) console.warn('The server failed; try again.');
 */
export class ServerError extends ServerResponseError {
  override name = 'ServerError';
  override readonly kind: ErrorKind = 'unknown';
}

/**
 * Any other 4xx: the server found the request itself wrong (a parameter it
 * does not take, a prompt longer than its context). Also a request that could
 * not be sent at all because its params are not JSON (a `BigInt`, a circular
 * object): then `status` is `0` and the message names the offending value.
 *
 * @example
 * if (result.error instanceof BadRequestError) console.warn(result.error.message);
 */
export class BadRequestError extends ServerResponseError {
  override name = 'BadRequestError';
}

/**
 * The server answered with a redirect (3xx), which is never followed: a
 * redirect would carry the API key and every header given to
 * `openaiEngines()` to the address it names, possibly another origin's. Also
 * an answer that a `fetch` of your own got by following one anyway. Not
 * retried and not fatal to the engine; the fix is a setting: `baseURL` set to
 * the address the server really serves from. `location` is where it pointed
 * (no query, no credentials; `undefined` when the browser hides it).
 *
 * @example
 * if (result.error instanceof RedirectRefusedError) console.warn(`Set baseURL to ${result.error.location}`);
 */
export class RedirectRefusedError extends ServerResponseError {
  override name = 'RedirectRefusedError';
  override readonly kind: ErrorKind = 'setup';
  readonly location: string | undefined;

  constructor(message: string, status: number, location: string | undefined, options: ServerResponseErrorOptions = {}) {
    super(message, status, { retryable: false, ...options });
    this.location = location;
  }
}

/**
 * The stream ended before the answer was complete (the connection dropped, a
 * proxy timed out, nothing came for `stallTimeoutMs`), or the server kept closing the connection before
 * answering at all. The job's result keeps the text received so far in
 * `text`; `receivedChars` says how much that was.
 *
 * @example
 * if (result.error instanceof StreamInterruptedError) keepDraft(result.text);
 */
export class StreamInterruptedError extends EngineError {
  override name = 'StreamInterruptedError';
  override readonly kind: ErrorKind = 'network';
  override readonly device: ErrorDevice = 'server';
  readonly receivedChars: number;

  constructor(message: string, receivedChars: number, options?: { cause?: unknown }) {
    super(message, options);
    this.receivedChars = receivedChars;
  }
}

/**
 * No response headers came within `connectTimeoutMs` of sending a request:
 * the server took the connection but does not answer (hung, overloaded, or
 * still loading a model). Not fatal to the engine: other requests on it go
 * on. `timeoutMs` is the limit that passed.
 *
 * @example
 * if (result.error instanceof ConnectTimeoutError) console.warn(`No answer within ${result.error.timeoutMs} ms`);
 */
export class ConnectTimeoutError extends EngineError {
  override name = 'ConnectTimeoutError';
  override readonly kind: ErrorKind = 'network';
  override readonly device: ErrorDevice = 'server';
  readonly timeoutMs: number;
  override readonly retryable = true;

  constructor(message: string, timeoutMs: number, options?: { cause?: unknown }) {
    super(message, options);
    this.timeoutMs = timeoutMs;
  }
}

/**
 * The server sent an event that is not OpenAI's streaming JSON, or one bigger
 * than `maxEventBytes`. The request is
 * aborted at that point; the job keeps the text received before it.
 *
 * @example
 * if (result.error instanceof MalformedStreamError) console.warn(result.error.message);
 */
export class MalformedStreamError extends EngineError {
  override name = 'MalformedStreamError';
  override readonly device: ErrorDevice = 'server';
}
