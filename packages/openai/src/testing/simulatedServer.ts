import type { ChatCompletionRequest } from '@inkling/scheduler';
import type { FetchLike } from '../types.js';

/** Options of `simulatedServer`. */
export interface SimulatedServerOptions {
  /** The answer to a chat request. Default: `'This is a simulated reply.'` */
  reply?: (request: ChatCompletionRequest) => string;
  /** Time to the first token. Default `120` ms. */
  prefillMs?: number;
  /** Time per token after the first. Default `25` ms. */
  tokenMs?: number;
  /** The model name it reports. Default `'simulated'`. */
  model?: string;
}

const encoder = new TextEncoder();
const words = (text: string) => text.match(/\s*\S+/g) ?? [];

/**
 * A SIMULATED OpenAI-compatible server as a `fetch`: `GET /models`,
 * `POST /chat/completions` (streamed as server-sent events, token by token
 * on timers, ending with a `finish_reason` chunk, a usage chunk and
 * `[DONE]`), and `POST /embeddings`. An aborted request stops its stream,
 * as a real server's closed connection does. Any number of requests run at
 * once. For stories, demos and tests of `openaiEngines` without a server;
 * no model runs.
 *
 * @example
 * const createEngine = openaiEngines({
 *   baseURL: 'https://llm.example/v1',
 *   model: 'simulated',
 *   fetch: simulatedServer({ tokenMs: 20 }),
 * });
 */
export function simulatedServer(options: SimulatedServerOptions = {}): FetchLike {
  const { prefillMs = 120, tokenMs = 25, model = 'simulated' } = options;
  const reply = options.reply ?? (() => 'This is a simulated reply.');
  let ids = 0;
  return async (input, init) => {
    const path = new URL(input).pathname;
    if (path.endsWith('/models')) return json({ object: 'list', data: [{ id: model, object: 'model' }] });
    const body = JSON.parse(String(init.body ?? '{}')) as ChatCompletionRequest & { input?: string | string[] };
    if (path.endsWith('/embeddings')) {
      const inputs = Array.isArray(body.input) ? body.input : [body.input ?? ''];
      return json({
        object: 'list',
        model,
        data: inputs.map((text, index) => ({ object: 'embedding', index, embedding: vector(String(text)) })),
        usage: { prompt_tokens: inputs.length, total_tokens: inputs.length },
      });
    }
    if (!path.endsWith('/chat/completions')) return json({ error: { message: `No route ${path}` } }, 404);
    const tokens = words(reply(body));
    const max = body.max_tokens ?? Number.POSITIVE_INFINITY;
    const id = `chatcmpl-sim-${++ids}`;
    const signal = init.signal ?? undefined;
    const chunk = (delta: object, finish: string | null) => ({
      id,
      object: 'chat.completion.chunk',
      created: Math.floor(Date.now() / 1000),
      model,
      choices: [{ index: 0, delta, finish_reason: finish }],
    });
    const stream = new ReadableStream<Uint8Array>({
      async start(controller) {
        const send = (data: unknown) => controller.enqueue(encoder.encode(`data: ${JSON.stringify(data)}\n\n`));
        try {
          let sent = 0;
          for (const token of tokens.slice(0, Math.min(tokens.length, max))) {
            await sleep(sent === 0 ? prefillMs : tokenMs, signal);
            send(chunk({ content: token }, null));
            sent += 1;
          }
          send(chunk({}, tokens.length > max ? 'length' : 'stop'));
          send({ ...chunk({}, null), choices: [], usage: { prompt_tokens: 1, completion_tokens: sent, total_tokens: sent + 1 } });
          controller.enqueue(encoder.encode('data: [DONE]\n\n'));
          controller.close();
        } catch (error) {
          controller.error(error);
        }
      },
    });
    return new Response(stream, { status: 200, headers: { 'content-type': 'text/event-stream' } });
  };
}

function json(data: unknown, status = 200): Response {
  return new Response(JSON.stringify(data), { status, headers: { 'content-type': 'application/json' } });
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

function vector(text: string): number[] {
  const v = Array.from({ length: 8 }, (_, i) => Math.sin(text.length * (i + 1) + (text.charCodeAt(i % Math.max(1, text.length)) || 0)));
  const norm = Math.hypot(...v) || 1;
  return v.map((x) => x / norm);
}
