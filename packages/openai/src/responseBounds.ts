import type { BodyBounds, BodyOverBound } from './bodyChunks.js';
import { StreamInterruptedError } from './errors.js';
import type { RequestContext } from './requestContext.js';

/** The most of a small body (an error's text, `/props`, `/slots`) that is read. */
export const SMALL_BODY_BYTES = 1024 * 1024;

/** The longest a small body is read for, in ms (less when `maxResponseMs` is less). */
export const SMALL_BODY_MS = 10_000;

/**
 * The bounds an answer is read within: `stallTimeoutMs` between reads,
 * `maxResponseBytes` and `maxResponseMs` in all, whatever the server does.
 *
 * @example
 * for await (const bytes of bodyChunks(response.body, answerBounds(context))) splitter.push(bytes);
 */
export function answerBounds(context: RequestContext): BodyBounds {
  return {
    timers: context.timers,
    stallTimeoutMs: context.stallTimeoutMs,
    maxBytes: context.maxResponseBytes,
    maxMs: context.maxResponseMs,
  };
}

/**
 * The bounds of a body read only for what it says (an error status's text,
 * llama.cpp's `/props` and `/slots`): `maxBytes` (default `SMALL_BODY_BYTES`),
 * at most `SMALL_BODY_MS` in all and between reads, less where the engine's
 * own bounds are less. A server that never ends such a body holds nothing
 * past them.
 *
 * @example
 * const { text } = await boundedText(response.body, smallBodyBounds(context, 64 * 1024));
 */
export function smallBodyBounds(
  context: Pick<RequestContext, 'timers' | 'stallTimeoutMs' | 'maxResponseMs'>,
  maxBytes = SMALL_BODY_BYTES,
): BodyBounds {
  return {
    timers: context.timers,
    stallTimeoutMs: Math.min(context.stallTimeoutMs, SMALL_BODY_MS),
    maxBytes,
    maxMs: Math.min(context.maxResponseMs, SMALL_BODY_MS),
  };
}

/**
 * The error for an answer closed because it passed `maxResponseBytes` or
 * `maxResponseMs`: a `StreamInterruptedError` (the text so far stays in the
 * job's `text`) whose message names the option.
 *
 * @example
 * if (error instanceof BodyOverBound) throw overBound(error, where, normalizer.chars);
 */
export function overBound(error: BodyOverBound, where: string, chars: number): StreamInterruptedError {
  const what =
    error.bound === 'bytes'
      ? `sent more than ${error.limit} bytes in one answer (maxResponseBytes)`
      : `was still answering ${error.limit} ms after it began (maxResponseMs)`;
  return new StreamInterruptedError(
    `The server at ${where} ${what}, so the request was closed (${chars} characters received, kept in the job's text). A server that ignores max_tokens or loops does this; if its answers really are this long, raise ${error.bound === 'bytes' ? 'maxResponseBytes' : 'maxResponseMs'} in openaiEngines().`,
    chars,
  );
}
