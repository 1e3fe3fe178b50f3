import { errorInBody } from './bodyError.js';
import { BodyOverBound, StreamStalled, bodyChunks } from './bodyChunks.js';
import { StreamInterruptedError } from './errors.js';
import { redactedCopy } from './redactedCopy.js';
import { requestIdOf } from './requestId.js';
import { answerBounds, overBound } from './responseBounds.js';
import type { Attempt, RequestContext } from './requestContext.js';

/**
 * Reads a `200` answer that is not a stream (embeddings, or a server that
 * ignored `stream: true`) whole, because some servers answer an error with a
 * `200` and `{"error": {...}}` ("Model is loading"): that is a failed attempt,
 * retryable when the error says so. Any other body is handed on as a fresh
 * `Response` with the same text and headers. Reading honours
 * `stallTimeoutMs`, `maxResponseBytes` and `maxResponseMs`.
 *
 * @example
 * const attempt = await wholeAnswer(response, context, '/embeddings', signal);
 */
export async function wholeAnswer(response: Response, context: RequestContext, path: string, signal: AbortSignal): Promise<Attempt> {
  const { endpoint } = context;
  let text = '';
  try {
    if (response.body) {
      const decoder = new TextDecoder();
      const parts: string[] = [];
      for await (const bytes of bodyChunks(response.body, answerBounds(context))) parts.push(decoder.decode(bytes, { stream: true }));
      parts.push(decoder.decode());
      text = parts.join('');
    }
  } catch (error) {
    if (signal.aborted) return { kind: 'aborted' };
    if (error instanceof BodyOverBound) throw overBound(error, `${endpoint.shown}${path}`, 0);
    const why = error instanceof StreamStalled ? `sent nothing for ${error.stallTimeoutMs} ms (stallTimeoutMs)` : 'broke off';
    throw new StreamInterruptedError(
      `The server at ${endpoint.shown}${path} ${why} in the middle of its answer. Try again; if it keeps happening, check the server's log and any proxy's read timeout.`,
      0,
      { cause: redactedCopy(error, (t) => endpoint.redact(t)) },
    );
  }
  const fresh = () =>
    new Response(text === '' ? null : text, { status: response.status, statusText: response.statusText, headers: response.headers });
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return { kind: 'ok', response: fresh() };
  }
  const error =
    raw && typeof raw === 'object' && !Array.isArray(raw)
      ? errorInBody(raw as Record<string, unknown>, false, {
          endpoint,
          where: `${endpoint.shown}${path}`,
          requestId: requestIdOf(response.headers, (t) => endpoint.redact(t)),
          midStream: false,
        })
      : undefined;
  if (!error) return { kind: 'ok', response: fresh() };
  return { kind: 'failed', retryable: error.retryable, advisedMs: undefined, error: async () => error, discard: () => {} };
}
