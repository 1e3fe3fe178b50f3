/// <reference types="node" />
/**
 * A small OpenAI-compatible server on 127.0.0.1 for tests: real sockets, real
 * SSE, and a record of every request, including whether the client went away
 * before the response ended (what a server sees when a request is aborted).
 */
import { type IncomingHttpHeaders, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface ReceivedRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  // oxlint-disable-next-line typescript/no-explicit-any -- a JSON body, read field by field in tests
  readonly body: any;
  /** True once the client closed the connection before the response was complete. */
  aborted: boolean;
  /** True once the response is over, either way. */
  closed: boolean;
  /** Resolves when the response is over, either way. */
  readonly done: Promise<void>;
}

export type Handler = (request: ReceivedRequest, res: ServerResponse) => void | Promise<void>;

export interface TestServer {
  /** `http://127.0.0.1:PORT/v1` */
  readonly baseURL: string;
  readonly requests: ReceivedRequest[];
  /** Requests to `path` whose response is still open. */
  open(path?: string): number;
  /** The most responses to `path` that were open at once. */
  peak(path?: string): number;
  close(): Promise<void>;
}

export interface Routes {
  chat?: Handler;
  embeddings?: Handler;
  models?: Handler;
  /** Any other path (llama.cpp's `/props`, `/infill`, `/completions`). Default: 404. */
  other?: Handler;
}

export async function startServer(routes: Routes = {}, port = 0): Promise<TestServer> {
  const requests: ReceivedRequest[] = [];
  const sockets = new Set<Socket>();
  const peaks = new Map<string, number>();
  const openCount = (path?: string) => requests.filter((r) => !r.closed && (!path || r.path.endsWith(path))).length;

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (piece: Buffer) => chunks.push(piece));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      let resolveDone!: () => void;
      const record: ReceivedRequest = {
        method: req.method ?? 'GET',
        path: req.url ?? '/',
        headers: req.headers,
        body: text ? JSON.parse(text) : undefined,
        aborted: false,
        closed: false,
        done: new Promise<void>((resolve) => (resolveDone = resolve)),
      };
      res.on('close', () => {
        record.aborted = !res.writableFinished;
        record.closed = true;
        resolveDone();
      });
      requests.push(record);
      const key = record.path.replace(/^\/v1/, '');
      peaks.set(key, Math.max(peaks.get(key) ?? 0, openCount(key)));
      const handler =
        key === '/chat/completions'
          ? (routes.chat ?? ((r, s) => streamReply(r, s, ['Hello', ' world'])))
          : key === '/embeddings'
            ? (routes.embeddings ?? embeddingsReply)
            : key === '/models'
              ? (routes.models ?? modelsReply)
              : (routes.other ?? ((_r: ReceivedRequest, s: ServerResponse) => json(s, 404, { error: { message: 'Not found' } })));
      void Promise.resolve(handler(record, res)).catch((error: unknown) => {
        res.destroy(error instanceof Error ? error : new Error(String(error)));
      });
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const address = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${address.port}/v1`,
    requests,
    open: openCount,
    peak: (path = '/chat/completions') => peaks.get(path) ?? 0,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

// ------------------------------------------------------------------ replies --

export function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'Content-Type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

/** Starts an SSE response. */
export function openStream(res: ServerResponse): void {
  res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache', Connection: 'keep-alive' });
  res.flushHeaders();
}

/** Writes one `data:` event. */
export function send(res: ServerResponse, data: unknown): void {
  res.write(`data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`);
}

/** A server chunk in OpenAI's shape (vLLM's, say). */
export function chunk(content: string | undefined, finish: string | null = null, extra: Record<string, unknown> = {}) {
  const delta: Record<string, unknown> = {};
  if (content !== undefined) delta.content = content;
  return {
    id: 'chatcmpl-test',
    object: 'chat.completion.chunk',
    created: 1_700_000_000,
    model: 'test-model',
    choices: [{ index: 0, delta, finish_reason: finish, logprobs: null }],
    ...extra,
  };
}

export const USAGE = { prompt_tokens: 7, completion_tokens: 2, total_tokens: 9 };

export interface StreamOptions {
  /** Milliseconds between tokens. Default `0`. */
  delayMs?: number;
  /** Default `USAGE`. */
  usage?: Record<string, unknown> | null;
  finish?: string;
}

/** Streams `tokens` the way vLLM does: content, a finish chunk, a usage chunk with no choices, `[DONE]`. */
export async function streamReply(req: ReceivedRequest, res: ServerResponse, tokens: string[], options: StreamOptions = {}): Promise<void> {
  openStream(res);
  send(res, { ...chunk(undefined), choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }] });
  for (const token of tokens) {
    if (options.delayMs) await sleep(options.delayMs);
    if (req.closed) return;
    send(res, chunk(token));
  }
  send(res, chunk(undefined, options.finish ?? 'stop'));
  const usage = options.usage === undefined ? USAGE : options.usage;
  if (usage) send(res, { ...chunk(undefined), choices: [], usage });
  send(res, '[DONE]');
  res.end();
}

function embeddingsReply(req: ReceivedRequest, res: ServerResponse): void {
  const inputs: unknown[] = Array.isArray(req.body.input) ? req.body.input : [req.body.input];
  // Out of order on purpose: the engine sorts by index.
  const data = inputs.map((input, index) => ({ object: 'embedding', index, embedding: [String(input).length, index] })).toReversed();
  json(res, 200, { object: 'list', model: req.body.model, data, usage: { prompt_tokens: inputs.length, total_tokens: inputs.length } });
}

function modelsReply(_req: ReceivedRequest, res: ServerResponse): void {
  json(res, 200, { object: 'list', data: [{ id: 'test-model', object: 'model' }] });
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Timers whose callbacks run only when the test says, for retry waits. */
export function manualTimers() {
  let next = 0;
  const pending = new Map<number, { callback: () => void; ms: number }>();
  return {
    setTimeout: (callback: () => void, ms: number): unknown => {
      next += 1;
      pending.set(next, { callback, ms });
      return next;
    },
    clearTimeout: (handle: unknown): void => {
      pending.delete(handle as number);
    },
    /** The delays of the waits not yet run. */
    waits: (): number[] => [...pending.values()].map((p) => p.ms),
    /** Runs every pending wait. */
    runAll: (): void => {
      const due = [...pending.values()];
      pending.clear();
      for (const { callback } of due) callback();
    },
  };
}

/** Polls until `check` is true (real timers), failing after `timeoutMs`. */
export async function until(check: () => boolean, timeoutMs = 2000): Promise<void> {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > timeoutMs) throw new Error('Timed out waiting for a condition.');
    await sleep(2);
  }
}

/**
 * A promise a handler can wait on until the test opens it: a server response
 * held for as long as a test needs, instead of for a guessed number of ms.
 */
export function gate(): { opened: Promise<void>; open: () => void } {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}
