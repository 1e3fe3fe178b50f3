import type { Endpoint } from './endpoint.js';
import { messageIn } from './errorForResponse.js';
import { ServerError, isRetryableStatus } from './errors.js';

/** Words a server uses when the model is not ready yet: trying again soon can work. */
const NOT_READY = /\bloading\b|\bwarming up\b|\bnot (yet )?ready\b|\bstarting up\b/i;

/** Where an error in a body was found, for its message. */
export interface BodyErrorContext {
  endpoint: Endpoint;
  /** The URL as errors show it. */
  where: string;
  /** The server's id for the request, already redacted (see `requestIdOf`). */
  requestId: string | undefined;
  /** True inside a stream that had begun; false for a whole JSON answer. */
  midStream: boolean;
}

/**
 * The error a server reported in a `200` answer: an `"error"` field in the
 * JSON (or an SSE event named `error`). `"error": null`, `false` or `""` is
 * no error (Microsoft Foundry Local sends `"error": null` on every chunk), as
 * the `openai` client reads it too; `undefined` is returned then.
 *
 * The error is a `ServerError` with the server's message (redacted) and the
 * status the server put in the error, else 500. It is `retryable` when that
 * status is, or when the message says the model is not ready ("Model is
 * loading").
 *
 * @example
 * const error = errorInBody({ error: { message: 'Model is loading' } }, false, context); // ServerError, retryable
 */
export function errorInBody(raw: Record<string, unknown>, namedError: boolean, context: BodyErrorContext): ServerError | undefined {
  if (!raw.error && !namedError) return undefined;
  const error = (raw.error && typeof raw.error === 'object' ? raw.error : {}) as { code?: unknown; status?: unknown };
  const code = [error.code, error.status, raw.code, raw.status].find((c): c is number => typeof c === 'number' && c >= 400 && c < 600);
  const status = code ?? 500;
  const said = context.endpoint.redact(messageIn(JSON.stringify(raw))).slice(0, 300);
  const retryable = isRetryableStatus(status) || NOT_READY.test(said);
  const ref = context.requestId ? ` (request id ${context.requestId})` : '';
  const where = context.midStream
    ? `reported an error in the middle of the stream${ref}: ${said}.`
    : `answered with an error instead of a stream${ref}: ${said}.`;
  const advice = retryable ? 'It should pass: try again in a moment' : "Try again; if it keeps failing, look at the server's log";
  return new ServerError(`The server at ${context.where} ${where} ${advice}.`, status, {
    cause: { body: said },
    requestId: context.requestId,
    retryable,
  });
}
