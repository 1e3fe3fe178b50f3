/** One server-sent event: its `event` field (default `'message'`) and its data lines joined. */
export interface ServerSentEvent {
  event: string;
  data: string;
}

/**
 * Reads a `text/event-stream` body as events, per the HTML spec's parsing
 * rules: lines end in LF, CR or CRLF (even split across network reads),
 * comment lines (`: ping`, sent by proxies and servers as keep-alives) and
 * `id` / `retry` fields are skipped, several `data:` lines join with LF, and
 * an empty line dispatches. An event left without its empty line at the end
 * of the body is still dispatched, since some servers end that way.
 *
 * Read errors (an abort, a dropped connection) are thrown to the caller; the
 * body is cancelled whenever the caller stops early.
 *
 * @example
 * for await (const { data } of sseEvents(response.body)) if (data === '[DONE]') break;
 */
export async function* sseEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<ServerSentEvent, void, undefined> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  let event = '';
  let data: string[] = [];
  let finished = false;

  function* lines(final: boolean): Generator<string> {
    for (;;) {
      const end = buffer.search(/\r\n|\r|\n/);
      if (end < 0) break;
      // A CR at the very end may be the first half of a CRLF still on the wire.
      if (!final && buffer[end] === '\r' && end === buffer.length - 1) break;
      const line = buffer.slice(0, end);
      buffer = buffer.slice(end + (buffer.startsWith('\r\n', end) ? 2 : 1));
      yield line;
    }
    if (final && buffer) {
      yield buffer;
      buffer = '';
    }
  }

  function* feed(final: boolean): Generator<ServerSentEvent> {
    for (const line of lines(final)) {
      if (line === '') {
        if (data.length > 0) yield { event: event || 'message', data: data.join('\n') };
        event = '';
        data = [];
        continue;
      }
      if (line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const field = colon < 0 ? line : line.slice(0, colon);
      let value = colon < 0 ? '' : line.slice(colon + 1);
      if (value.startsWith(' ')) value = value.slice(1);
      if (field === 'data') data.push(value);
      else if (field === 'event') event = value;
    }
    if (final && data.length > 0) yield { event: event || 'message', data: data.join('\n') };
  }

  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      buffer += decoder.decode(value, { stream: true });
      yield* feed(false);
    }
    buffer += decoder.decode();
    finished = true;
    yield* feed(true);
  } finally {
    // Stopping early (or a throw) must close the connection, not leave it open.
    if (!finished) void reader.cancel().catch(() => {});
    reader.releaseLock();
  }
}
