import type { ChatCompletionChunk } from '@inkling/scheduler';
import { errorInBody } from './bodyError.js';
import { BodyOverBound, StreamStalled, bodyChunks } from './bodyChunks.js';
import { ChunkNormalizer } from './chunkNormalizer.js';
import type { Endpoint } from './endpoint.js';
import { MalformedStreamError, ServerError, StreamInterruptedError } from './errors.js';
import { redactedCopy } from './redactedCopy.js';
import { requestIdOf } from './requestId.js';
import { answerBounds, overBound } from './responseBounds.js';
import type { RequestContext } from './sendRequest.js';
import { sseEvents } from './sseEvents.js';

/** How much of an offending event a message quotes. */
const QUOTE = 80;

/**
 * Reads a chat completion response as WebLLM-shaped chunks (see
 * `ChunkNormalizer`). A server that answered with plain JSON instead of a
 * stream is read the same way. `route` names another path the stream came
 * from (a fill-in-the-middle route) and how to turn its events into
 * OpenAI's chunk shape first.
 *
 * The request's bounds hold whatever the server does: past `maxTokens` (the
 * request's `max_tokens`) pieces of output the request is closed and the
 * stream ends with `finish_reason: 'length'`, the pieces over the bound
 * dropped (a piece is an event with output in it, at least one token on
 * every server, so an honest server never meets this); past
 * `maxResponseBytes` or `maxResponseMs` it is closed with a
 * `StreamInterruptedError`.
 *
 * Ends with a `finish_reason: 'abort'` chunk when `signal` aborts, as a
 * WebLLM generation does when interrupted. Throws `StreamInterruptedError`
 * when the body ends or breaks before the finish, or sends nothing for
 * `stallTimeoutMs`; `MalformedStreamError` on an event that is not JSON or is
 * longer than `maxEventBytes`; and `ServerError` on an error event (a chunk
 * with `"error": null` is an ordinary chunk). The chunks before any of these
 * were already yielded, so the job keeps their text.
 *
 * @example
 * for await (const chunk of chatStream(response, context, signal)) onChunk(chunk);
 */
export async function* chatStream(
  response: Response,
  context: RequestContext,
  signal: AbortSignal,
  route: { path: string; adapt?: (raw: Record<string, unknown>) => Record<string, unknown>; maxTokens?: number } = {
    path: '/chat/completions',
  },
): AsyncGenerator<ChatCompletionChunk, void, undefined> {
  const { endpoint } = context;
  const normalizer = new ChunkNormalizer(endpoint.model);
  const where = `${endpoint.shown}${route.path}`;
  const adapt = route.adapt ?? ((raw: Record<string, unknown>) => raw);
  const errorContext = { endpoint, where, requestId: requestIdOf(response.headers, (t) => endpoint.redact(t)), midStream: true };
  const maxTokens = route.maxTokens ?? Number.POSITIVE_INFINITY;
  let pieces = 0;
  try {
    if (!response.body || !/text\/event-stream/i.test(response.headers.get('content-type') ?? '')) {
      // Some servers ignore `stream: true` and answer in one piece (read whole, and checked for an error, by `sendRequest`).
      yield* normalizer.push(adapt(parseEvent(await response.text(), endpoint, where, normalizer.chars)));
      yield* normalizer.end();
      return;
    }
    let done = false;
    const events = sseEvents(bodyChunks(response.body, answerBounds(context)), {
      maxEventBytes: context.maxEventBytes,
      source: `the server at ${where}`,
    });
    for await (const event of events) {
      if (event.data.trim() === '[DONE]') {
        done = true;
        break;
      }
      const raw = parseEvent(event.data, endpoint, where, normalizer.chars);
      const error = errorInBody(raw, event.event === 'error', errorContext);
      if (error) throw error;
      const adapted = adapt(raw);
      if (!normalizer.finished && hasOutput(adapted) && ++pieces > maxTokens) {
        // The server ignored max_tokens: the request is closed here (leaving the loop cancels the body).
        yield* normalizer.end('length');
        return;
      }
      yield* normalizer.push(adapted);
    }
    if (!done && !normalizer.finished) throw interrupted(where, normalizer.chars, undefined, endpoint);
    yield* normalizer.end();
  } catch (error) {
    if (signal.aborted) {
      yield* normalizer.end('abort');
      return;
    }
    if (error instanceof MalformedStreamError || error instanceof ServerError || error instanceof StreamInterruptedError) throw error;
    if (error instanceof BodyOverBound) throw overBound(error, where, normalizer.chars);
    // The body broke off. After the finish that only cost the usage report.
    if (normalizer.finished) {
      yield* normalizer.end();
      return;
    }
    throw interrupted(where, normalizer.chars, error, endpoint);
  }
}

/** Whether a chunk carries output of the first choice: text, reasoning or a tool call's fragment. */
function hasOutput(raw: Record<string, unknown>): boolean {
  const choices = Array.isArray(raw.choices) ? (raw.choices as Array<Record<string, unknown>>) : [];
  const choice = choices.find((c) => (c.index ?? 0) === 0);
  if (!choice) return false;
  const delta = (choice.delta ?? choice.message ?? {}) as Record<string, unknown>;
  const text = [delta.content, delta.reasoning_content, delta.reasoning, choice.text];
  return text.some((t) => typeof t === 'string' && t !== '') || (Array.isArray(delta.tool_calls) && delta.tool_calls.length > 0);
}

function parseEvent(data: string, endpoint: Endpoint, where: string, chars: number): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(data);
    if (value && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // Reported below, with the offending text.
  }
  const quote = endpoint.redact(data).slice(0, QUOTE);
  throw new MalformedStreamError(
    `The server at ${where} sent a stream event that is not OpenAI's JSON: "${quote}". Check that baseURL points at an OpenAI-compatible server and that no proxy rewrites its stream. The job keeps the ${chars} characters received before it.`,
  );
}

function interrupted(where: string, chars: number, cause: unknown, endpoint: Endpoint): StreamInterruptedError {
  const kept = `(${chars} characters received, kept in the job's text)`;
  if (cause instanceof StreamStalled) {
    return new StreamInterruptedError(
      `The server at ${where} sent nothing for ${cause.stallTimeoutMs} ms in the middle of the stream ${kept}, so the request was closed (stallTimeoutMs). Try again; if the server is just slow (a long prompt, a full queue), raise stallTimeoutMs in openaiEngines().`,
      chars,
    );
  }
  return new StreamInterruptedError(
    `The server at ${where} ended the stream before the answer was complete ${kept}. Try again; if it keeps happening, check the server's log and any proxy's read timeout.`,
    chars,
    cause === undefined ? undefined : { cause: redactedCopy(cause, (text) => endpoint.redact(text)) },
  );
}
