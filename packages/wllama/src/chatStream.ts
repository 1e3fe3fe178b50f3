import { type ChatCompletionChunk, type InklingError, isFatalEngineError } from '@inkling/scheduler';
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
  const queue: unknown[] = [];
  let wake: (() => void) | undefined;
  let settled = false;
  let failure: { reason: unknown } | undefined;
  const ping = () => {
    const w = wake;
    wake = undefined;
    w?.();
  };
  request
    .start((chunk) => {
      queue.push(chunk);
      ping();
    })
    .then(
      () => {},
      (reason: unknown) => (failure = { reason }),
    )
    .finally(() => {
      settled = true;
      ping();
    });
  try {
    for (;;) {
      while (queue.length > 0) yield* normalizer.push(queue.shift());
      if (settled) break;
      await new Promise<void>((resolve) => (wake = resolve));
    }
  } finally {
    // Closed early (or thrown into): stop the generation; it settles on its own.
    if (!settled) request.abort();
    request.release();
  }
  if (failure) {
    const error = request.classify(failure.reason);
    // An abort surfaces as an error from wllama; a dead worker is reported even then.
    if (!signal.aborted || isFatalEngineError(error)) throw error;
  }
  yield* normalizer.end(signal.aborted ? 'abort' : 'stop');
}
