import { MalformedStreamError } from './errors.js';
import { LineSplitter } from './lineSplitter.js';

/** One server-sent event: its `event` field (default `'message'`) and its data lines joined. */
export interface ServerSentEvent {
  event: string;
  data: string;
}

/** Options of `sseEvents`. */
export interface SseEventsOptions {
  /**
   * The most bytes one event may take, its field lines and their line ends
   * together (comments included). A longer event throws a
   * `MalformedStreamError` as soon as it passes the limit, before it is all
   * held in memory. Default `Infinity`.
   */
  maxEventBytes?: number;
  /** Names the stream in errors, e.g. `'the server at http://host/v1/chat/completions'`. Default `'the server'`. */
  source?: string;
}

/**
 * Reads a `text/event-stream` body as events, per the HTML spec's parsing
 * rules: lines end in LF, CR or CRLF (even split across network reads),
 * comment lines (`: ping`, sent by proxies and servers as keep-alives) and
 * `id` / `retry` fields are skipped, several `data:` lines join with LF, and
 * an empty line dispatches. An event left without its empty line at the end
 * of the body is still dispatched, since some servers end that way (the
 * spec and the `openai` client drop it).
 *
 * Linear in the body whatever its chunking (see `LineSplitter`). Read errors
 * (an abort, a dropped connection) are thrown to the caller.
 *
 * @example
 * for await (const { data } of sseEvents(chunks, { maxEventBytes: 4 * 1024 * 1024 })) if (data === '[DONE]') break;
 */
export async function* sseEvents(
  chunks: AsyncIterable<Uint8Array>,
  options: SseEventsOptions = {},
): AsyncGenerator<ServerSentEvent, void, undefined> {
  const { maxEventBytes = Number.POSITIVE_INFINITY, source = 'the server' } = options;
  const splitter = new LineSplitter();
  const event = new EventBuilder();
  let eventBytes = 0;
  const tooLong = () =>
    new MalformedStreamError(
      `${capitalized(source)} sent a stream event longer than ${maxEventBytes} bytes (maxEventBytes) before ending it. Check that baseURL points at an OpenAI-compatible server and that no proxy rewrites its stream; if its events really are this big, raise maxEventBytes in openaiEngines(). The job keeps the text received before it.`,
    );
  for await (const chunk of chunks) {
    for (const line of splitter.push(chunk)) {
      eventBytes += line.bytes;
      if (eventBytes > maxEventBytes) throw tooLong();
      const dispatched = event.take(line.text);
      if (line.text === '') eventBytes = 0;
      if (dispatched) yield dispatched;
    }
    // Checked on every chunk, so an event that never ends is not held whole first.
    if (eventBytes + splitter.pendingBytes > maxEventBytes) throw tooLong();
  }
  for (const line of splitter.end()) event.take(line.text);
  const last = event.take('');
  if (last) yield last;
}

/** Folds field lines into an event; `take` returns the event an empty line completes. */
class EventBuilder {
  #event = '';
  #data: string[] = [];

  take(line: string): ServerSentEvent | undefined {
    if (line === '') {
      const event = this.#data.length > 0 ? { event: this.#event || 'message', data: this.#data.join('\n') } : undefined;
      this.#event = '';
      this.#data = [];
      return event;
    }
    if (line.startsWith(':')) return undefined;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') this.#data.push(value);
    else if (field === 'event') this.#event = value;
    return undefined;
  }
}

function capitalized(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
