import type { Endpoint } from './endpoint.js';
import {
  AuthenticationError,
  BadRequestError,
  ModelNotFoundError,
  RateLimitError,
  ServerError,
  type ServerResponseError,
} from './errors.js';

/** The most of a server's error text kept in a message. */
const MAX_DETAIL = 300;

/**
 * The typed error for a response with an error status. Reads (and so consumes)
 * the body, except for 401/403, whose body is never read: some servers put the
 * key they refused in it.
 *
 * @example
 * if (!response.ok) throw await errorForResponse(response, endpoint, '/chat/completions', undefined);
 */
export async function errorForResponse(
  response: Response,
  endpoint: Endpoint,
  path: string,
  retryAfter: number | undefined,
): Promise<ServerResponseError> {
  const { status } = response;
  const where = `${endpoint.shown}${path}`;
  if (status === 401 || status === 403) {
    void response.body?.cancel().catch(() => {});
    return new AuthenticationError(
      status === 401
        ? `The server at ${where} refused the API key (401 Unauthorized). Check the apiKey (or the headers) given to openaiEngines().`
        : `The server at ${where} does not allow this key to do that (403 Forbidden). Check that the key may use model "${endpoint.model}".`,
      status,
      { cause: { status, statusText: response.statusText } },
    );
  }
  const detail = await readDetail(response, endpoint);
  const cause = { status, statusText: response.statusText, body: detail };
  const said = detail ? ` The server said: ${detail}` : '';
  if (status === 404) {
    return new ModelNotFoundError(
      `The server at ${where} answered 404: it has no model "${endpoint.model}", or baseURL misses its "/v1". Check the model name against GET ${endpoint.shown}/models.${said}`,
      status,
      { cause },
    );
  }
  if (status === 429) {
    const advice = retryAfter === undefined ? 'Try again later' : `It asks to wait ${Math.ceil(retryAfter / 1000)} s`;
    return new RateLimitError(
      `The server at ${where} is rate-limiting requests (429). ${advice}, or lower "concurrency" in openaiEngines().${said}`,
      status,
      retryAfter,
      { cause },
    );
  }
  if (status >= 500) {
    return new ServerError(
      `The server at ${where} failed on this request (${status}). Try again; if it keeps failing, look at the server's log.${said}`,
      status,
      { cause },
    );
  }
  return new BadRequestError(
    `The server at ${where} rejected the request (${status}). Check the job's params (a parameter it does not take, a prompt longer than its context).${said}`,
    status,
    { cause },
  );
}

/** The server's own words about the error, shortened and with secrets removed. */
async function readDetail(response: Response, endpoint: Endpoint): Promise<string> {
  let text: string;
  try {
    text = await response.text();
  } catch {
    return '';
  }
  return endpoint.redact(messageIn(text)).slice(0, MAX_DETAIL);
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
