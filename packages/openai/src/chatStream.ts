import type { ChatCompletionChunk } from '@inkling/scheduler';
import { ChunkNormalizer } from './chunkNormalizer.js';
import type { Endpoint } from './endpoint.js';
import { messageIn } from './errorForResponse.js';
import { MalformedStreamError, ServerError, StreamInterruptedError } from './errors.js';
import { sseEvents } from './sseEvents.js';

/** How much of an offending event a message quotes. */
const QUOTE = 80;

/**
 * Reads a chat completion response as WebLLM-shaped chunks (see
 * `ChunkNormalizer`). A server that answered with plain JSON instead of a
 * stream is read the same way.
 *
 * Ends with a `finish_reason: 'abort'` chunk when `signal` aborts, as a
 * WebLLM generation does when interrupted. Throws `StreamInterruptedError`
 * when the body ends or breaks before the finish, `MalformedStreamError` on
 * an event that is not JSON, and `ServerError` on an error event; the chunks
 * before any of these were already yielded, so the job keeps their text.
 *
 * @example
 * for await (const chunk of chatStream(response, endpoint, signal)) onChunk(chunk);
 */
export async function* chatStream(
  response: Response,
  endpoint: Endpoint,
  signal: AbortSignal,
): AsyncGenerator<ChatCompletionChunk, void, undefined> {
  const normalizer = new ChunkNormalizer(endpoint.model);
  const where = `${endpoint.shown}/chat/completions`;
  try {
    if (!response.body || !/text\/event-stream/i.test(response.headers.get('content-type') ?? '')) {
      // Some servers ignore `stream: true` and answer in one piece.
      yield* normalizer.push(parseEvent(await response.text(), endpoint, where, normalizer.chars));
      yield* normalizer.end();
      return;
    }
    let done = false;
    for await (const event of sseEvents(response.body)) {
      if (event.data.trim() === '[DONE]') {
        done = true;
        break;
      }
      const raw = parseEvent(event.data, endpoint, where, normalizer.chars);
      if (event.event === 'error' || raw.error !== undefined) throw errorEvent(raw, event.data, endpoint, where);
      yield* normalizer.push(raw);
    }
    if (!done && !normalizer.finished) throw interrupted(where, normalizer.chars, undefined);
    yield* normalizer.end();
  } catch (error) {
    if (signal.aborted) {
      yield* normalizer.end('abort');
      return;
    }
    if (error instanceof MalformedStreamError || error instanceof ServerError || error instanceof StreamInterruptedError) throw error;
    // The body broke off. After the finish that only cost the usage report.
    if (normalizer.finished) {
      yield* normalizer.end();
      return;
    }
    throw interrupted(where, normalizer.chars, error);
  }
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

function errorEvent(raw: Record<string, unknown>, data: string, endpoint: Endpoint, where: string): ServerError {
  const error = raw.error as { code?: unknown; status?: unknown } | undefined;
  const code = [error?.code, error?.status].find((c): c is number => typeof c === 'number' && c >= 400);
  const said = endpoint.redact(messageIn(data)).slice(0, 300);
  return new ServerError(
    `The server at ${where} reported an error in the middle of the stream: ${said}. Try again; if it keeps failing, look at the server's log.`,
    code ?? 500,
    { cause: { body: said } },
  );
}

function interrupted(where: string, chars: number, cause: unknown): StreamInterruptedError {
  return new StreamInterruptedError(
    `The server at ${where} ended the stream before the answer was complete (${chars} characters received, kept in the job's text). Try again; if it keeps happening, check the server's log and any proxy's read timeout.`,
    chars,
    cause === undefined ? undefined : { cause },
  );
}
