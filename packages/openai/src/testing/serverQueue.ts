import type { PoolTimers } from '@inkling/scheduler';

/** What a simulated server counts: running requests put back to wait, requests shed with a 503, and its peaks. */
export interface ServerStats {
  preemptions: number;
  shed: number;
  peakRunning: number;
  peakQueued: number;
}

/** How a `ServerQueue` runs: its batch, its timings, and whether and how it orders by priority. */
export interface ServerQueueConfig {
  readonly maxRunning: number;
  readonly retryAfterS: number;
  readonly prefillMs: number;
  readonly tokenMs: number;
  /** Whether waiting requests are ordered (and running ones preempted) by priority. */
  readonly ordered: boolean;
  /** How much more urgent a waiting request must be to preempt a running one. */
  readonly threshold: number;
  readonly timers: PoolTimers;
}

/** One request the server holds, from arrival to its last token. */
export interface LiveRequest {
  readonly seq: number;
  /** Sort key: lower runs first. */
  readonly key: number;
  readonly seen: { readonly body: Record<string, unknown>; status: number };
  readonly total: number;
  sent: number;
  timer: unknown;
  controller: ReadableStreamDefaultController<Uint8Array> | undefined;
  respond: ((response: Response) => void) | undefined;
  fail: (error: unknown) => void;
  done: boolean;
}

const encoder = new TextEncoder();
const byUrgency = (a: LiveRequest, b: LiveRequest) => a.key - b.key || a.seq - b.seq;

/**
 * The waiting and running requests of a simulated server (`schedulingServer`):
 * admits up to `maxRunning`, streams each admitted request's tokens on the
 * timers, preempts the least urgent running request for a more urgent
 * waiting one when ordered, sheds with a 503, and drops an aborted request.
 *
 * @example
 * const queue = new ServerQueue({ maxRunning: 2, retryAfterS: 1, prefillMs: 40, tokenMs: 10, ordered: true, threshold: 0, timers: globalTimers }, stats);
 * queue.enqueue(live);
 * queue.schedule();
 */
export class ServerQueue {
  readonly waiting: LiveRequest[] = [];
  readonly running: LiveRequest[] = [];

  readonly #config: ServerQueueConfig;
  readonly #stats: ServerStats;

  constructor(config: ServerQueueConfig, stats: ServerStats) {
    this.#config = config;
    this.#stats = stats;
  }

  /** Whether the batch and the queue are both full (`maxQueued` waiting). */
  full(maxQueued: number): boolean {
    return this.running.length >= this.#config.maxRunning && this.waiting.length >= maxQueued;
  }

  enqueue(live: LiveRequest): void {
    this.waiting.push(live);
    this.waiting.sort(byUrgency);
    this.#stats.peakQueued = Math.max(this.#stats.peakQueued, this.waiting.length);
  }

  schedule(): void {
    const { waiting, running } = this;
    while (waiting.length > 0 && running.length < this.#config.maxRunning) this.#admit(waiting.shift()!);
    if (!this.#config.ordered) return;
    while (waiting.length > 0) {
      const best = waiting[0]!;
      const worst = running.toSorted(byUrgency).at(-1);
      if (!worst || !(worst.key - best.key > this.#config.threshold)) break;
      this.#preempt(worst);
      this.#admit(waiting.shift()!);
    }
  }

  shed(live: LiveRequest): void {
    this.#stats.shed += 1;
    live.done = true;
    live.seen.status = 503;
    live.respond?.(
      new Response(JSON.stringify({ error: { message: 'The request queue is full.', code: 503 } }), {
        status: 503,
        headers: { 'content-type': 'application/json', 'retry-after': String(this.#config.retryAfterS) },
      }),
    );
    live.respond = undefined;
  }

  drop(live: LiveRequest): void {
    if (live.done) return;
    live.done = true;
    this.#config.timers.clearTimeout(live.timer);
    const at = this.waiting.indexOf(live);
    if (at >= 0) this.waiting.splice(at, 1);
    const on = this.running.indexOf(live);
    if (on >= 0) this.running.splice(on, 1);
    try {
      live.controller?.error(new DOMException('The client closed the connection.', 'AbortError'));
    } catch {
      // Already closed.
    }
    live.fail(new DOMException('The request was aborted.', 'AbortError'));
    this.schedule();
  }

  #admit(live: LiveRequest): void {
    this.running.push(live);
    this.#stats.peakRunning = Math.max(this.#stats.peakRunning, this.running.length);
    if (live.respond) {
      const stream = new ReadableStream<Uint8Array>({ start: (controller) => void (live.controller = controller) });
      live.respond(new Response(stream, { status: 200, headers: { 'content-type': 'text/event-stream' } }));
      live.respond = undefined;
      live.seen.status = 200;
    }
    // A first admission prefills; a preempted request is recomputed, which costs the same.
    live.timer = this.#config.timers.setTimeout(() => this.#tick(live), this.#config.prefillMs);
  }

  #preempt(live: LiveRequest): void {
    this.#config.timers.clearTimeout(live.timer);
    live.timer = undefined;
    this.running.splice(this.running.indexOf(live), 1);
    this.#stats.preemptions += 1;
    this.enqueue(live);
  }

  #tick(live: LiveRequest): void {
    live.timer = undefined;
    send(live, chunk(live, { content: ` t${live.sent}` }, null));
    live.sent += 1;
    if (live.sent >= live.total) this.#finish(live);
    else live.timer = this.#config.timers.setTimeout(() => this.#tick(live), this.#config.tokenMs);
  }

  #finish(live: LiveRequest): void {
    live.done = true;
    this.running.splice(this.running.indexOf(live), 1);
    send(live, chunk(live, {}, 'length'));
    send(live, {
      ...chunk(live, {}, null),
      choices: [],
      usage: { prompt_tokens: 8, completion_tokens: live.sent, total_tokens: 8 + live.sent, prompt_tokens_details: { cached_tokens: 0 } },
    });
    live.controller?.enqueue(encoder.encode('data: [DONE]\n\n'));
    live.controller?.close();
    this.schedule();
  }
}

function send(live: LiveRequest, data: unknown): void {
  live.controller?.enqueue(encoder.encode(`data: ${JSON.stringify(data)}\n\n`));
}

function chunk(live: LiveRequest, delta: object, finish: string | null) {
  return {
    id: `chatcmpl-${live.seq}`,
    object: 'chat.completion.chunk',
    model: String(live.seen.body.model ?? 'sim'),
    choices: [{ index: 0, delta, finish_reason: finish }],
  };
}
