import type { PoolTimers } from '@inkling/scheduler';

/**
 * Thrown by `bodyChunks` when no bytes came for `stallTimeoutMs`. Internal:
 * `chatStream` turns it into a `StreamInterruptedError` that keeps the text.
 *
 * @example
 * if (error instanceof StreamStalled) console.warn(`silent for ${error.stallTimeoutMs} ms`);
 */
export class StreamStalled extends Error {
  override name = 'StreamStalled';
  readonly stallTimeoutMs: number;

  constructor(stallTimeoutMs: number) {
    super(`No bytes for ${stallTimeoutMs} ms.`);
    this.stallTimeoutMs = stallTimeoutMs;
  }
}

/**
 * The chunks of a response body, giving up with `StreamStalled` when one
 * read waits longer than `stallTimeoutMs` (on `timers`; `Infinity` waits for
 * ever). The body is cancelled, closing the connection, whenever reading
 * stops before its end: a stall, a throw, or a caller that stops early.
 *
 * @example
 * for await (const bytes of bodyChunks(response.body, { timers, stallTimeoutMs: 60_000 })) splitter.push(bytes);
 */
export async function* bodyChunks(
  body: ReadableStream<Uint8Array>,
  { timers, stallTimeoutMs }: { timers: PoolTimers; stallTimeoutMs: number },
): AsyncGenerator<Uint8Array, void, undefined> {
  const reader = body.getReader();
  let finished = false;
  try {
    for (;;) {
      const { done, value } = await readWithin(reader, timers, stallTimeoutMs);
      if (done) break;
      if (value.length > 0) yield value;
    }
    finished = true;
  } finally {
    if (!finished) void reader.cancel().catch(() => {});
    reader.releaseLock();
  }
}

function readWithin(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  timers: PoolTimers,
  ms: number,
): Promise<ReadableStreamReadResult<Uint8Array>> {
  if (ms === Number.POSITIVE_INFINITY) return reader.read();
  return new Promise((resolve, reject) => {
    const handle = timers.setTimeout(() => reject(new StreamStalled(ms)), ms);
    reader.read().then(
      (result) => {
        timers.clearTimeout(handle);
        resolve(result);
      },
      (error: unknown) => {
        timers.clearTimeout(handle);
        reject(error);
      },
    );
  });
}
