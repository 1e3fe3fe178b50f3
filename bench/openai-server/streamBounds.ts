/**
 * What the answer's bounds (max_tokens pieces, maxResponseBytes,
 * maxResponseMs, each read raced against one deadline) cost on the hot path:
 * a job streaming `events` chunks from an in-memory server, through the pool
 * and the engine, timed end to end. A benchmark, not a test.
 *
 * Built twice, against two trees, and run alternately in one process:
 *
 *   npx esbuild bench/openai-server/streamBounds.ts --bundle --platform=node --format=esm \
 *     --conditions=@inkling/source --outfile=/tmp/after.mjs
 *   npx esbuild bench/openai-server/streamBounds.ts --bundle --platform=node --format=esm \
 *     --conditions=@inkling/source --alias:@inkling/openai=OLD/packages/openai/src/index.ts \
 *     --alias:@inkling/scheduler=OLD/packages/scheduler/src/index.ts --outfile=/tmp/before.mjs
 *   node -e "..." (see README: import both, call run() in alternating order, ≥ 5 repetitions)
 */
import { EnginePool } from '@inkling/scheduler';
import { openaiEngines } from '@inkling/openai';

const encoder = new TextEncoder();

/** An SSE body of `events` one-token chunks, `perRead` events per network read, then a finish and `[DONE]`. */
function body(events: number, perRead: number): ReadableStream<Uint8Array> {
  let sent = 0;
  return new ReadableStream({
    pull(controller) {
      if (sent >= events) {
        controller.enqueue(encoder.encode(`data: {"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}\n\ndata: [DONE]\n\n`));
        controller.close();
        return;
      }
      let text = '';
      for (let i = 0; i < perRead && sent < events; i += 1, sent += 1) {
        text += `data: {"id":"c","choices":[{"index":0,"delta":{"content":" t${sent}"},"finish_reason":null}]}\n\n`;
      }
      controller.enqueue(encoder.encode(text));
    },
  });
}

/**
 * Streams one job of `events` chunks (`max_tokens` above it, so the bound is
 * checked on every chunk but never met) and resolves with the milliseconds
 * it took and the characters it got.
 *
 * @example
 * const { ms } = await run(20_000, 16);
 */
export async function run(events: number, perRead: number): Promise<{ ms: number; chars: number }> {
  const pool = new EnginePool({
    createEngine: openaiEngines({
      baseURL: 'http://bench.invalid/v1',
      model: 'bench',
      maxRetries: 0,
      fetch: async (input) =>
        input.endsWith('/models')
          ? new Response('{"data":[]}', { headers: { 'content-type': 'application/json' } })
          : new Response(body(events, perRead), { headers: { 'content-type': 'text/event-stream' } }),
    }),
    size: 1,
  });
  await pool.load();
  const started = performance.now();
  const result = await pool.submit({ params: { messages: [{ role: 'user', content: 'x' }], max_tokens: events + 10 } });
  const ms = performance.now() - started;
  await pool.unload();
  if (result.status !== 'done') throw new Error(`The bench job ended ${result.status}: ${result.error?.message}`);
  return { ms, chars: result.text.length };
}
