import { boundedText } from './bodyChunks.js';
import { smallBodyBounds } from './responseBounds.js';
import type { RequestContext } from './requestContext.js';
import { requestIdOf } from './requestId.js';
import {
  AuthenticationError,
  BadRequestError,
  isRetryableStatus,
  RateLimitError,
  ServerError,
  ServerModelNotFoundError,
  type ServerResponseError,
  type ServerResponseErrorOptions,
} from './errors.js';

/** The most of a server's error text kept in a message. */
const MAX_DETAIL = 300;

/** The most of an error body read: its message is near the start. */
const MAX_ERROR_BODY = 64 * 1024;

/**
 * The typed error for a response with an error status. Reads (and so consumes)
 * the start of the body, at most 64 KiB and within `smallBodyBounds` (a body
 * that never ends holds nothing), except for 401/403, whose body is never
 * read: some servers put the key they refused in it. Every error carries the status, the server's request
 * id and whether retrying can help; `retryAfter` is the server's advice (ms),
 * and `waitRefused` says it was longer than the engine waits, which makes any
 * status a `RateLimitError` carrying that wait. `interactive` says the job
 * was not retried because a person is waiting on it: a busy answer (429, 503)
 * is then a `RateLimitError` too, with the server's wait.
 *
 * @example
 * if (!response.ok) throw await errorForResponse(response, context, '/chat/completions', { retryAfter: undefined });
 */
export async function errorForResponse(
  response: Response,
  context: Pick<RequestContext, 'endpoint' | 'timers' | 'stallTimeoutMs' | 'maxResponseMs'>,
  path: string,
  {
    retryAfter,
    waitRefused = false,
    interactive = false,
  }: { retryAfter: number | undefined; waitRefused?: boolean; interactive?: boolean },
): Promise<ServerResponseError> {
  const { status } = response;
  const { endpoint } = context;
  const where = `${endpoint.shown}${path}`;
  const requestId = requestIdOf(response.headers, (t) => endpoint.redact(t));
  const ref = requestId ? ` (request id ${requestId})` : '';
  // The reason phrase is the server's text too: some echo what they refused.
  const statusText = endpoint.redact(response.statusText);
  if (status === 401 || status === 403) {
    void response.body?.cancel().catch(() => {});
    return keyRefused(status, where, ref, endpoint.model, { cause: { status, statusText }, requestId });
  }
  const detail = await readDetail(response, context);
  const cause = { status, statusText, body: detail };
  const said = `${ref}.${detail ? ` The server said: ${detail}` : ''}`;
  const options = { cause, requestId };
  if (status === 404) {
    return new ServerModelNotFoundError(
      `The server at ${where} answered 404: it has no model "${endpoint.model}", or baseURL misses its "/v1". Check the model name against GET ${endpoint.shown}/models${said}`,
      status,
      options,
    );
  }
  const shed = interactive && (status === 429 || status === 503);
  if (status === 429 || waitRefused || shed) {
    return rateLimited(where, status, retryAfter, waitRefused ? 'refused' : shed ? 'shed' : 'later', said, options);
  }
  if (status >= 500 || status === 408) {
    const advice = isRetryableStatus(status)
      ? 'It is overloaded, restarting or behind a gateway that timed out (retried up to maxRetries times): try again later'
      : "Look at the server's log";
    return new ServerError(
      `The server at ${where} failed on this request (${status})${ref}. ${advice}.${detail ? ` The server said: ${detail}` : ''}`,
      status,
      options,
    );
  }
  return new BadRequestError(
    `The server at ${where} rejected the request (${status}). Check the job's params (a parameter it does not take, a prompt longer than its context)${said}`,
    status,
    options,
  );
}

/** 401 (the key refused) or 403 (the key may not do this): the body is never read, some servers put the key in it. */
function keyRefused(
  status: 401 | 403,
  where: string,
  ref: string,
  model: string,
  options: ServerResponseErrorOptions,
): AuthenticationError {
  return new AuthenticationError(
    status === 401
      ? `The server at ${where} refused the API key (401 Unauthorized)${ref}. Check the apiKey (or the headers) given to openaiEngines().`
      : `The server at ${where} does not allow this key to do that (403 Forbidden)${ref}. Check that the key may use model "${model}".`,
    status,
    options,
  );
}

/**
 * A busy or rate-limiting server, with the wait it asked for and what to do:
 * wait then (`'refused'`: longer than the engine waits), give it more capacity
 * (`'shed'`: an interactive job, not retried), or try again `'later'`.
 */
function rateLimited(
  where: string,
  status: number,
  retryAfter: number | undefined,
  why: 'refused' | 'shed' | 'later',
  said: string,
  options: ServerResponseErrorOptions,
): RateLimitError {
  const wait = retryAfter === undefined ? '' : ` and asks to wait ${Math.ceil(retryAfter / 1000)} s`;
  const busy = status === 429 ? 'is rate-limiting requests (429)' : `is busy (${status})`;
  const advice =
    why === 'refused'
      ? ', longer than maxRetryDelayMs allows. Try again then, or raise maxRetryDelayMs'
      : why === 'shed'
        ? '. An interactive job is not retried (the next keystroke asks again); give the server more capacity'
        : '. Try again later';
  return new RateLimitError(
    `The server at ${where} ${busy}${wait}${advice}, or lower "concurrency" in openaiEngines()${said}`,
    status,
    retryAfter,
    options,
  );
}

/** The server's own words about the error, shortened and with secrets removed. */
async function readDetail(
  response: Response,
  context: Pick<RequestContext, 'endpoint' | 'timers' | 'stallTimeoutMs' | 'maxResponseMs'>,
): Promise<string> {
  const { text } = await boundedText(response.body, smallBodyBounds(context, MAX_ERROR_BODY));
  return context.endpoint.redact(messageIn(text)).slice(0, MAX_DETAIL);
}

/**
 * The message in an error body. Servers put it in different places: OpenAI
 * `error.message`, FastAPI `detail`, llama.cpp `error.message`, plain text.
 *
 * @example
 * messageIn('{"detail":"Not Found"}'); // 'Not Found'
 */
export function messageIn(text: string): string {
  try {
    const body = JSON.parse(text) as Record<string, unknown>;
    const error = body.error;
    if (typeof error === 'string') return error;
    if (error && typeof error === 'object' && typeof (error as { message?: unknown }).message === 'string') {
      return (error as { message: string }).message;
    }
    if (typeof body.message === 'string') return body.message;
    if (typeof body.detail === 'string') return body.detail;
  } catch {
    // Not JSON: the text itself is the message.
  }
  return text.trim();
}
