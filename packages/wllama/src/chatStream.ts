import type { ChatCompletionChunk, InklingError } from '@inkling/scheduler';
import { ChunkQueue, isFatalEngineError } from '@inkling/scheduler/engine';
import { ChunkNormalizer } from './chunkNormalizer.js';

/** One streamed chat call. */
export interface ChatStreamRequest {
  model: string;
  /** Aborted to stop the generation. */
  signal: AbortSignal;
  /** Called once the call is over, however it ends. */
  release: () => void;
  /** Aborts `signal`: the stream was closed before the call ended. */
  abort: () => void;
  /** Starts the call; `onData` receives llama.cpp's chunks; settles when it is over. */
  start: (onData: (chunk: unknown) => void) => Promise<unknown>;
  /** The typed error for a failed call. */
  classify: (reason: unknown) => InklingError;
}

/**
 * Runs one chat call and streams it as WebLLM-shaped chunks (see
 * `ChunkNormalizer`). The call starts on the first `next()`, so a stream
 * closed unstarted costs nothing. When `signal` aborts, the chunks llama.cpp
 * still sends before it stops (at most a token or so) pass through, then a
 * `finish_reason: 'abort'` chunk ends the stream. Closing the stream early
 * aborts the call.
 *
 * @example
 * for await (const chunk of chatStream({ model, signal, release, start, classify })) onChunk(chunk);
 */
export async function* chatStream(request: ChatStreamRequest): AsyncGenerator<ChatCompletionChunk, void, undefined> {
  const { signal } = request;
  const normalizer = new ChunkNormalizer(request.model);
  if (signal.aborted) {
    request.release();
    yield* normalizer.end('abort');
    return;
  }
  // llama.cpp pushes its chunks at its own pace; the stream reads them in order.
  const queue = new ChunkQueue<unknown>();
  request
    .start((chunk) => queue.push(chunk))
    .then(
      () => queue.end(),
      (reason: unknown) => queue.fail(reason),
    );
  let failure: { reason: unknown } | undefined;
  try {
    for (;;) {
      let step: IteratorResult<unknown>;
      try {
        step = await queue.next();
      } catch (reason) {
        failure = { reason };
        break;
      }
      if (step.done) break;
      yield* normalizer.push(step.value);
    }
  } finally {
    // Closed early (or thrown into): stop the generation; it settles on its own.
    if (!queue.ended) request.abort();
    request.release();
  }
  if (failure) {
    const error = request.classify(failure.reason);
    // An abort surfaces as an error from wllama; a dead worker is reported even then.
    if (!signal.aborted || isFatalEngineError(error)) throw error;
  }
  yield* normalizer.end(signal.aborted ? 'abort' : 'stop');
}
