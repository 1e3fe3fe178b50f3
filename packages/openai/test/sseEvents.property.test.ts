import * as fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { openaiEngines } from '../src/index.js';
import { type ServerSentEvent, sseEvents } from '../src/sseEvents.js';

const encoder = new TextEncoder();

/** Text for a field value: no CR or LF; colons, spaces and characters of 2, 3 and 4 UTF-8 bytes are likely. */
const valueText = fc.string({
  unit: fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom('a', 'b', ' ', ':', '"', '{', 'é', '€', '中', '😀', '\u2028', '\u0085', '\t') },
    {
      weight: 1,
      arbitrary: fc
        .integer({ min: 0x20, max: 0x10ffff })
        .filter((c) => c < 0xd800 || c > 0xdfff)
        .map((c) => String.fromCodePoint(c)),
    },
  ),
  maxLength: 12,
});
const eol = fc.constantFrom('\n', '\r\n', '\r');
const space = fc.constantFrom('', ' ', '  ');

/** Lines that carry no data: comments, `id`, `retry`, unknown fields. */
const noise = fc.oneof(
  valueText.map((t) => `:${t}`),
  valueText.map((t) => `id: ${t}`),
  fc.nat(9999).map((n) => `retry: ${n}`),
  fc.tuple(fc.constantFrom('foo', 'ids', 'Data'), valueText).map(([f, t]) => `${f}:${t}`),
);

/** One event: data lines (1 to 3; a bare `data` line is an empty one), maybe a name, noise in between. */
const eventLines = fc
  .tuple(
    fc.option(
      valueText.filter((t) => !t.startsWith(' ')),
      { nil: undefined },
    ),
    fc.array(
      fc.oneof(
        fc.tuple(space, valueText).map(([s, t]) => `data:${s}${t}`),
        fc.constant('data'),
      ),
      { minLength: 1, maxLength: 3 },
    ),
    fc.array(noise, { maxLength: 2 }),
  )
  .chain(([name, data, extra]) =>
    // Noise lines go anywhere between the data lines, which keep their order.
    fc.array(fc.nat(data.length), { minLength: extra.length, maxLength: extra.length }).map((at) => {
      const lines = [...data];
      for (const [i, line] of extra.entries()) lines.splice(Math.min(at[i]!, lines.length), 0, line);
      return name === undefined ? lines : [`event: ${name}`, ...lines];
    }),
  );

/**
 * A whole stream: events and comment-only blocks, each ended by an empty
 * line, every line with its own line end. A CR line end followed by an empty
 * line's LF reads as one CRLF, which merges two blocks (both decoders see the
 * same bytes, so that is fine), but at the very end it would leave the last
 * event unended: the final LF LF makes sure the stream ends with an empty line.
 */
const stream = fc
  .array(fc.oneof({ weight: 4, arbitrary: eventLines }, { weight: 1, arbitrary: fc.array(noise, { minLength: 1, maxLength: 2 }) }), {
    minLength: 1,
    maxLength: 6,
  })
  .chain((blocks) => {
    const lines = blocks.flatMap((block) => [...block, '']);
    return fc
      .array(eol, { minLength: lines.length, maxLength: lines.length })
      .map((ends) => `${lines.map((line, i) => line + ends[i]).join('')}\n\n`);
  });

/** Cuts `bytes` at arbitrary places, inside characters and between CR and LF included. */
function cutAt(bytes: Uint8Array, cuts: number[]): Uint8Array[] {
  const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].toSorted((a, b) => a - b);
  const out: Uint8Array[] = [];
  let from = 0;
  for (const point of [...points, bytes.length]) {
    out.push(bytes.slice(from, point));
    from = point;
  }
  return out;
}

/**
 * The reference: the HTML spec's event-stream interpretation written out
 * plainly over the whole text at once (which is how the `openai` client
 * reads a complete stream too).
 */
function referenceEvents(text: string): ServerSentEvent[] {
  const lines = text.split(/\r\n|\r|\n/);
  lines.pop(); // after the last line end: an incomplete line, not dispatched
  const events: ServerSentEvent[] = [];
  let name = '';
  let data: string[] = [];
  for (const line of lines) {
    if (line === '') {
      if (data.length > 0) events.push({ event: name || 'message', data: data.join('\n') });
      name = '';
      data = [];
    } else if (!line.startsWith(':')) {
      const colon = line.indexOf(':');
      const field = colon === -1 ? line : line.slice(0, colon);
      const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (field === 'data') data.push(value);
      if (field === 'event') name = value;
    }
  }
  return events;
}

async function parse(chunks: Uint8Array[]): Promise<ServerSentEvent[]> {
  const out: ServerSentEvent[] = [];
  async function* source() {
    yield* chunks;
  }
  for await (const event of sseEvents(source())) out.push(event);
  return out;
}

describe('sseEvents agrees with a plain reading of the spec', () => {
  it('on generated streams: any chunking, multi-byte text cut inside characters, CRLF/LF/CR, comments, multi-line data', async () => {
    await fc.assert(
      fc.asyncProperty(stream, fc.array(fc.nat(), { maxLength: 12 }), async (text, cuts) => {
        const bytes = encoder.encode(text);
        expect(await parse(cutAt(bytes, cuts))).toEqual(referenceEvents(text));
      }),
      { numRuns: 600 },
    );
  });

  it('one byte at a time too', async () => {
    await fc.assert(
      fc.asyncProperty(stream, async (text) => {
        const bytes = encoder.encode(text);
        expect(await parse([...bytes].map((b) => Uint8Array.of(b)))).toEqual(referenceEvents(text));
      }),
      { numRuns: 100 },
    );
  });

  it('where it parts from the spec, on purpose: an event left without its empty line at the end is still dispatched', async () => {
    expect(await parse([encoder.encode('data: a\n\ndata: b')])).toEqual([
      { event: 'message', data: 'a' },
      { event: 'message', data: 'b' },
    ]);
    expect(referenceEvents('data: a\n\ndata: b')).toEqual([{ event: 'message', data: 'a' }]);
  });
});

/** A content piece: multi-byte text, cut anywhere on the wire. */
const piece = fc.string({ unit: fc.constantFrom('a', ' ', 'é', '€', '中', '😀', '"', '\\', '\n'), minLength: 1, maxLength: 6 });

describe('an engine reads any chunking of a stream into the same text', () => {
  it('whatever the cuts, line ends and "error": null fields', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(piece, { minLength: 1, maxLength: 8 }),
        fc.constantFrom('\n', '\r\n', '\r'),
        fc.boolean(),
        fc.array(fc.nat(), { maxLength: 10 }),
        async (pieces, end, nullErrors, cuts) => {
          const extra = nullErrors ? { error: null } : {};
          const events = [
            ...pieces.map((content) => ({ choices: [{ index: 0, delta: { content }, finish_reason: null }], ...extra })),
            { choices: [{ index: 0, delta: {}, finish_reason: 'stop' }], ...extra },
          ].map((e) => `: ping${end}data: ${JSON.stringify(e)}${end}${end}`);
          const bytes = encoder.encode(`${events.join('')}data: [DONE]${end}${end}`);
          const engine = await openaiEngines({
            baseURL: 'http://llm.test/v1',
            model: 'm',
            fetch: async (input) => {
              if (input.endsWith('/models')) return new Response('{"data":[]}');
              const chunks = cutAt(bytes, cuts);
              const body = new ReadableStream<Uint8Array>({
                pull(controller) {
                  const next = chunks.shift();
                  if (next) controller.enqueue(next);
                  else controller.close();
                },
              });
              return new Response(body, { headers: { 'content-type': 'text/event-stream' } });
            },
          })(0, () => {});
          let text = '';
          for await (const chunk of await engine.chat.completions.create({ messages: [{ role: 'user', content: 'x' }], stream: true })) {
            text += chunk.choices[0]?.delta.content ?? '';
          }
          expect(text).toBe(pieces.join(''));
        },
      ),
      { numRuns: 200 },
    );
  });
});
