import { type PoolTimers } from '@inkling/scheduler';
import { globalTimers } from '@inkling/scheduler/engine';
import type { FetchLike } from '../types.js';
import { type LiveRequest, ServerQueue, type ServerStats } from './serverQueue.js';

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
  readonly stats: ServerStats;
}

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
  const stats: ServerStats = { preemptions: 0, shed: 0, peakRunning: 0, peakQueued: 0 };
  let seq = 0;

  const ordered = server === 'vllm' ? options.schedulingPolicy !== 'fcfs' : options.priorityScheduling !== false;
  const lowFirst = server === 'vllm' || options.lowValuesFirst === true;
  const threshold = server === 'sglang' ? (options.preemptionThreshold ?? 10) : 0;
  const queue = new ServerQueue({ maxRunning, retryAfterS, prefillMs, tokenMs, ordered, threshold, timers }, stats);
  const keyOf = (priority: unknown): number => urgencyKey(priority, server, ordered, lowFirst);

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
      const live: LiveRequest = {
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
      signal?.addEventListener('abort', () => queue.drop(live), { once: true });
      if (queue.full(maxQueued)) {
        const worst = queue.waiting.at(-1);
        if (ordered && worst && worst.key > live.key) {
          queue.waiting.pop();
          queue.shed(worst);
        } else {
          queue.shed(live);
          return;
        }
      }
      queue.enqueue(live);
      queue.schedule();
    });
  };

  return { fetch, requests, stats };
}

/** A request's sort key (lower runs first) from its body's `priority`, as `server` ranks it. */
function urgencyKey(priority: unknown, server: SchedulingServerOptions['server'], ordered: boolean, lowFirst: boolean): number {
  if (!ordered) return 0;
  const value =
    typeof priority === 'number' ? priority : server === 'vllm' ? 0 : lowFirst ? Number.POSITIVE_INFINITY : Number.NEGATIVE_INFINITY;
  return lowFirst ? value : -value;
}

function json(data: unknown, status: number): Response {
  return new Response(JSON.stringify(data), { status, headers: { 'content-type': 'application/json' } });
}
