/**
 * `pnpm --filter @inkling/bench sse`: the SSE reader of @inkling/openai is
 * linear in the body whatever its chunking. One chat answer whose single event
 * is SIZE_MB of text is read through a real engine (a `fetch` that serves it
 * from memory), delivered whole (the baseline) and in 16 KiB pieces; and a
 * tenth of it in 16 KiB pieces. Linear reading gives ratios near 1 and 10;
 * rescanning the buffer on every read (the reader before this change) gives
 * seconds for the cut one. Alternating repetitions, min/median/max.
 */
import { openaiEngines } from '@inkling/openai';
import { fmt, median, table } from '../shared/stats.js';

const SIZE_MB = 10;
const PIECE = 16 * 1024;
const REPETITIONS = 5;
const encoder = new TextEncoder();

function body(megabytes: number): Uint8Array {
  const content = 'lorem ipsum '.repeat(Math.ceil((megabytes * 1024 * 1024) / 12)).slice(0, megabytes * 1024 * 1024);
  const event = { choices: [{ index: 0, delta: { content }, finish_reason: 'stop' }] };
  return encoder.encode(`data: ${JSON.stringify(event)}\n\ndata: [DONE]\n\n`);
}

async function readMs(bytes: Uint8Array, piece: number): Promise<number> {
  const engine = await openaiEngines({
    baseURL: 'http://bench.invalid/v1',
    model: 'bench',
    maxEventBytes: Number.POSITIVE_INFINITY,
    fetch: async (input) => {
      if (input.endsWith('/models')) return new Response('{"data":[]}');
      let at = 0;
      const stream = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (at >= bytes.length) return controller.close();
          controller.enqueue(bytes.subarray(at, at + piece));
          at += piece;
        },
      });
      return new Response(stream, { headers: { 'content-type': 'text/event-stream' } });
    },
  })(0, () => {});
  const start = performance.now();
  let chars = 0;
  for await (const chunk of await engine.chat.completions.create({ messages: [{ role: 'user', content: 'x' }], stream: true })) {
    chars += chunk.choices[0]?.delta.content?.length ?? 0;
  }
  const ms = performance.now() - start;
  if (chars < bytes.length * 0.9) throw new Error(`read ${chars} characters of ${bytes.length} bytes`);
  return ms;
}

const big = body(SIZE_MB);
const small = body(SIZE_MB / 10);
const cases = [
  { label: `${SIZE_MB} MB event, one piece (baseline)`, bytes: big, piece: big.length },
  { label: `${SIZE_MB} MB event, 16 KiB pieces`, bytes: big, piece: PIECE },
  { label: `${SIZE_MB / 10} MB event, 16 KiB pieces`, bytes: small, piece: PIECE },
];
const times = cases.map(() => [] as number[]);
for (let round = 0; round < REPETITIONS; round += 1) {
  for (const [i, c] of cases.entries()) times[i]!.push(await readMs(c.bytes, c.piece));
}
const base = median(times[0]!);
console.log(`\nOne SSE event read through openaiEngines, ${REPETITIONS} alternating repetitions\n`);
console.log(
  table(
    ['case', 'min ms', 'median ms', 'max ms', 'median vs baseline'],
    cases.map((c, i) => {
      const t = times[i]!;
      return [c.label, fmt(Math.min(...t)), fmt(median(t)), fmt(Math.max(...t)), `x${fmt(median(t) / base, 2)}`];
    }),
  ),
);
