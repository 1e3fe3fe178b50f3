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
 * Thrown by `bodyChunks` when a body passed one of its bounds: more than
 * `maxBytes` bytes (`bound: 'bytes'`), or still going `maxMs` after reading
 * began (`bound: 'time'`); `limit` is the bound that passed. Internal: each
 * reader turns it into its typed error.
 *
 * @example
 * if (error instanceof BodyOverBound) console.warn(`${error.bound} over ${error.limit}`);
 */
export class BodyOverBound extends Error {
  override name = 'BodyOverBound';
  readonly bound: 'bytes' | 'time';
  readonly limit: number;

  constructor(bound: 'bytes' | 'time', limit: number) {
    super(bound === 'bytes' ? `More than ${limit} bytes.` : `Still going after ${limit} ms.`);
    this.bound = bound;
    this.limit = limit;
  }
}

/** How long and how much of a body is read; every duration in ms, `Infinity` for no bound. */
export interface BodyBounds {
  readonly timers: PoolTimers;
  /** The longest wait for the next bytes. */
  readonly stallTimeoutMs: number;
  /** The most bytes read in all. Default `Infinity`. */
  readonly maxBytes?: number;
  /** The longest time from the first read to the end. Default `Infinity`. */
  readonly maxMs?: number;
}

/**
 * The chunks of a response body, giving up with `StreamStalled` when one
 * read waits longer than `stallTimeoutMs`, and with `BodyOverBound` past
 * `maxBytes` in all or `maxMs` from the first read (on `timers`; `Infinity`
 * waits for ever). The chunk that passes `maxBytes` is not yielded. The body
 * is cancelled, closing the connection, whenever reading stops before its
 * end: a bound, a throw, or a caller that stops early.
 *
 * @example
 * for await (const bytes of bodyChunks(response.body, { timers, stallTimeoutMs: 60_000, maxBytes: 1 << 20 })) splitter.push(bytes);
 */
export async function* bodyChunks(body: ReadableStream<Uint8Array>, bounds: BodyBounds): AsyncGenerator<Uint8Array, void, undefined> {
  const { timers, stallTimeoutMs, maxBytes = Number.POSITIVE_INFINITY, maxMs = Number.POSITIVE_INFINITY } = bounds;
  const reader = body.getReader();
  let finished = false;
  let bytes = 0;
  // One timer for the whole body. At the deadline it cancels the reader, which ends the pending read at once
  // (a cancelled stream is closed, whatever its source does); no per-read race on the hot path.
  let expired = false;
  const deadline =
    maxMs === Number.POSITIVE_INFINITY
      ? undefined
      : timers.setTimeout(() => {
          expired = true;
          void reader.cancel().catch(() => {});
        }, maxMs);
  try {
    for (;;) {
      let read: ReadableStreamReadResult<Uint8Array>;
      try {
        read = await readWithin(reader, timers, stallTimeoutMs);
      } catch (error) {
        if (expired) throw new BodyOverBound('time', maxMs);
        throw error;
      }
      if (expired) throw new BodyOverBound('time', maxMs);
      const { done, value } = read;
      if (done) break;
      bytes += value.length;
      if (bytes > maxBytes) throw new BodyOverBound('bytes', maxBytes);
      if (value.length > 0) yield value;
    }
    finished = true;
  } finally {
    if (deadline !== undefined) timers.clearTimeout(deadline);
    if (!finished) void reader.cancel().catch(() => {});
    reader.releaseLock();
  }
}

/**
 * A body read whole as text, or as much of it as came within `bounds`:
 * reading stops at `maxBytes` (the text is cut there), at `maxMs`, at a
 * stall, or when the body breaks, and `cut` says it stopped early. For
 * bodies whose start is all that is wanted (an error's message, a small
 * JSON), never the answer itself.
 *
 * @example
 * const { text } = await boundedText(response.body, { timers, stallTimeoutMs: 10_000, maxBytes: 64 * 1024, maxMs: 10_000 });
 */
export async function boundedText(body: ReadableStream<Uint8Array> | null, bounds: BodyBounds): Promise<{ text: string; cut: boolean }> {
  if (!body) return { text: '', cut: false };
  const decoder = new TextDecoder();
  const parts: string[] = [];
  let left = bounds.maxBytes ?? Number.POSITIVE_INFINITY;
  let cut = false;
  try {
    // The bound is applied here, so the bytes up to it are kept rather than thrown away.
    for await (const bytes of bodyChunks(body, { ...bounds, maxBytes: Number.POSITIVE_INFINITY })) {
      parts.push(decoder.decode(bytes.subarray(0, Math.min(bytes.length, left)), { stream: true }));
      left -= bytes.length;
      if (left <= 0) {
        cut = true;
        break;
      }
    }
  } catch {
    cut = true;
  }
  parts.push(decoder.decode());
  return { text: parts.join(''), cut };
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
