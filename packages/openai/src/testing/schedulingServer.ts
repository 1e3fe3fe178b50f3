import { type PoolTimers } from '@inkling/scheduler';
import { globalTimers } from '@inkling/scheduler/engine';
import type { FetchLike } from '../types.js';

/** Options of `schedulingServer`. */
export interface SchedulingServerOptions {
  /** Whose documented scheduling to follow. Required. */
  server: 'vllm' | 'sglang';
  /** Requests it runs at once (vLLM's `--max-num-seqs`, SGLang's `--max-running-requests`). Default `8`. */
  maxRunning?: number;
  /** Requests it holds waiting; one more is shed with a 503 (SGLang's `--max-queued-requests`). Default `Infinity`. */
  maxQueued?: number;
  /** The `Retry-After` of a shed request, in seconds. Default `1`. */
  retryAfterS?: number;
  /** Time from a request's admission to its first token. Default `40` ms. */
  prefillMs?: number;
  /** Time per token after the first. Default `10` ms. */
  tokenMs?: number;
  /** vLLM's `--scheduling-policy`. Default `'priority'`. */
  schedulingPolicy?: 'fcfs' | 'priority';
  /** SGLang's `--enable-priority-scheduling`. Default `true`. */
  priorityScheduling?: boolean;
  /** SGLang's `--schedule-low-priority-values-first`. Default `false`. */
  lowValuesFirst?: boolean;
  /** SGLang's `--priority-scheduling-preemption-threshold`. Default `10`. */
  preemptionThreshold?: number;
  /** Timers for every delay. Default: the global ones, looked up when used. */
  timers?: PoolTimers;
  /** The clock that stamps each request's arrival, in ms. Default `performance.now`, looked up when used. */
  now?: () => number;
}

/** One request as the server saw it. */
export interface SeenRequest {
  readonly path: string;
  readonly body: Record<string, unknown>;
  readonly headers: Record<string, string>;
  /** When it arrived (`now`). */
  readonly at: number;
  /** The HTTP status it was answered with (`0` while it waits or was aborted waiting). */
  status: number;
}

/** What `schedulingServer` returns: the `fetch` to give `openaiEngines`, and what it saw. */
export interface SchedulingServer {
  readonly fetch: FetchLike;
  /** Every chat request, in arrival order. */
  readonly requests: SeenRequest[];
  /** Running requests it put back to wait for a more urgent one; requests it shed with a 503. */
  readonly stats: { preemptions: number; shed: number; peakRunning: number; peakQueued: number };
}

interface Live {
  readonly seq: number;
  /** Sort key: lower runs first. */
  readonly key: number;
  readonly seen: SeenRequest;
  readonly total: number;
  sent: number;
  timer: unknown;
  controller: ReadableStreamDefaultController<Uint8Array> | undefined;
  respond: ((response: Response) => void) | undefined;
  fail: (error: unknown) => void;
  done: boolean;
}

const encoder = new TextEncoder();

/**
 * A SIMULATED inference server as a `fetch`, for tests of how a pool's
 * requests are scheduled on the far side: it runs `maxRunning` requests at
 * once, holds the rest waiting, and orders and preempts them by the body's
 * `priority` the way its server documents it:
 *
 * - `vllm` (`--scheduling-policy priority`): waiting requests by `priority`,
 *   **lower first**, ties by arrival; when the batch is full and a waiting
 *   request has a lower value than the worst running one, that one is
 *   preempted (recomputed later: it waits again and its stream pauses). A
 *   full batch stands for vLLM's full KV cache, the case in which it preempts.
 *   With `schedulingPolicy: 'fcfs'` any `priority` but 0 is refused with a
 *   400, as vLLM does.
 * - `sglang` (`--enable-priority-scheduling`): **higher first** (lower with
 *   `lowValuesFirst`); a request without a priority ranks last; a waiting
 *   request preempts a running one only when its priority is more than
 *   `preemptionThreshold` better. With `maxQueued`, a request beyond a full
 *   queue is shed with a 503 and `Retry-After` ("The request queue is
 *   full."), or, when it outranks the worst waiting request, that one is shed
 *   instead.
 *
 * A request's response (200, a server-sent-event stream of `max_tokens`
 * tokens, default 16, then usage and `[DONE]`) starts when it is admitted.
 * No model runs; tokens are ` t0 t1 ...` on the timers.
 *
 * @example
 * const server = schedulingServer({ server: 'sglang', maxRunning: 4 });
 * const pool = new EnginePool({ createEngine: openaiEngines({ baseURL: 'http://sim/v1', model: 'sim', fetch: server.fetch, priority: 'sglang' }), size: 1 });
 */
export function schedulingServer(options: SchedulingServerOptions): SchedulingServer {
  const { server, maxRunning = 8, maxQueued = Number.POSITIVE_INFINITY, retryAfterS = 1, prefillMs = 40, tokenMs = 10 } = options;
  const timers = options.timers ?? globalTimers;
  const now = options.now ?? (() => performance.now());
  const requests: SeenRequest[] = [];
  const stats = { preemptions: 0, shed: 0, peakRunning: 0, peakQueued: 0 };
  const waiting: Live[] = [];
  const running: Live[] = [];
  let seq = 0;

  const ordered = server === 'vllm' ? options.schedulingPolicy !== 'fcfs' : options.priorityScheduling !== false;
  const lowFirst = server === 'vllm' || options.lowValuesFirst === true;
  const threshold = server === 'sglang' ? (options.preemptionThreshold ?? 10) : 0;
  const keyOf = (priority: unknown): number => {
    if (!ordered) return 0;
    const value =
      typeof priority === 'number' ? priority : server === 'vllm' ? 0 : lowFirst ? Number.POSITIVE_INFINITY : Number.NEGATIVE_INFINITY;
    return lowFirst ? value : -value;
  };
  const byUrgency = (a: Live, b: Live) => a.key - b.key || a.seq - b.seq;

  const send = (live: Live, data: unknown) => live.controller?.enqueue(encoder.encode(`data: ${JSON.stringify(data)}\n\n`));
  const chunk = (live: Live, delta: object, finish: string | null) => ({
    id: `chatcmpl-${live.seq}`,
    object: 'chat.completion.chunk',
    model: String(live.seen.body.model ?? 'sim'),
    choices: [{ index: 0, delta, finish_reason: finish }],
  });

  const finish = (live: Live) => {
    live.done = true;
    running.splice(running.indexOf(live), 1);
    send(live, chunk(live, {}, 'length'));
    send(live, {
      ...chunk(live, {}, null),
      choices: [],
      usage: { prompt_tokens: 8, completion_tokens: live.sent, total_tokens: 8 + live.sent, prompt_tokens_details: { cached_tokens: 0 } },
    });
    live.controller?.enqueue(encoder.encode('data: [DONE]\n\n'));
    live.controller?.close();
    schedule();
  };

  const tick = (live: Live) => {
    live.timer = undefined;
    send(live, chunk(live, { content: ` t${live.sent}` }, null));
    live.sent += 1;
    if (live.sent >= live.total) finish(live);
    else live.timer = timers.setTimeout(() => tick(live), tokenMs);
  };

  const admit = (live: Live) => {
    running.push(live);
    stats.peakRunning = Math.max(stats.peakRunning, running.length);
    if (live.respond) {
      const stream = new ReadableStream<Uint8Array>({ start: (controller) => void (live.controller = controller) });
      live.respond(new Response(stream, { status: 200, headers: { 'content-type': 'text/event-stream' } }));
      live.respond = undefined;
      live.seen.status = 200;
    }
    // A first admission prefills; a preempted request is recomputed, which costs the same.
    live.timer = timers.setTimeout(() => tick(live), prefillMs);
  };

  const preempt = (live: Live) => {
    timers.clearTimeout(live.timer);
    live.timer = undefined;
    running.splice(running.indexOf(live), 1);
    stats.preemptions += 1;
    enqueue(live);
  };

  const enqueue = (live: Live) => {
    waiting.push(live);
    waiting.sort(byUrgency);
    stats.peakQueued = Math.max(stats.peakQueued, waiting.length);
  };

  function schedule(): void {
    while (waiting.length > 0 && running.length < maxRunning) admit(waiting.shift()!);
    if (!ordered) return;
    while (waiting.length > 0) {
      const best = waiting[0]!;
      const worst = running.toSorted(byUrgency).at(-1);
      if (!worst || !(worst.key - best.key > threshold)) break;
      preempt(worst);
      admit(waiting.shift()!);
    }
  }

  const shed = (live: Live) => {
    stats.shed += 1;
    live.done = true;
    live.seen.status = 503;
    live.respond?.(
      new Response(JSON.stringify({ error: { message: 'The request queue is full.', code: 503 } }), {
        status: 503,
        headers: { 'content-type': 'application/json', 'retry-after': String(retryAfterS) },
      }),
    );
    live.respond = undefined;
  };

  const drop = (live: Live) => {
    if (live.done) return;
    live.done = true;
    timers.clearTimeout(live.timer);
    const at = waiting.indexOf(live);
    if (at >= 0) waiting.splice(at, 1);
    const on = running.indexOf(live);
    if (on >= 0) running.splice(on, 1);
    try {
      live.controller?.error(new DOMException('The client closed the connection.', 'AbortError'));
    } catch {
      // Already closed.
    }
    live.fail(new DOMException('The request was aborted.', 'AbortError'));
    schedule();
  };

  const fetch: FetchLike = async (input, init) => {
    const path = new URL(input).pathname;
    if (path.endsWith('/models')) return json({ object: 'list', data: [{ id: 'sim', object: 'model' }] }, 200);
    const body = JSON.parse(String(init.body ?? '{}')) as Record<string, unknown>;
    const headers = Object.fromEntries(new Headers(init.headers).entries());
    const seen: SeenRequest = { path, body, headers, at: now(), status: 0 };
    if (!path.endsWith('/chat/completions')) return json({ error: { message: `No route ${path}` } }, 404);
    requests.push(seen);
    const priority = body.priority;
    if (server === 'vllm' && !ordered && priority !== undefined && priority !== 0) {
      seen.status = 400;
      return json({ error: { message: `Got priority ${String(priority)} but Priority scheduling is not enabled.`, code: 400 } }, 400);
    }
    const signal = init.signal ?? undefined;
    return new Promise<Response>((resolve, reject) => {
      const live: Live = {
        seq: ++seq,
        key: keyOf(priority),
        seen,
        total: typeof body.max_tokens === 'number' ? body.max_tokens : 16,
        sent: 0,
        timer: undefined,
        controller: undefined,
        respond: resolve,
        fail: (error) => (live.respond ? reject(error) : undefined),
        done: false,
      };
      if (signal?.aborted) return reject(new DOMException('The request was aborted.', 'AbortError'));
      signal?.addEventListener('abort', () => drop(live), { once: true });
      if (running.length >= maxRunning && waiting.length >= maxQueued) {
        const worst = waiting.at(-1);
        if (ordered && worst && worst.key > live.key) {
          waiting.pop();
          shed(worst);
        } else {
          shed(live);
          return;
        }
      }
      enqueue(live);
      schedule();
    });
  };

  return { fetch, requests, stats };
}

function json(data: unknown, status: number): Response {
  return new Response(JSON.stringify(data), { status, headers: { 'content-type': 'application/json' } });
}
