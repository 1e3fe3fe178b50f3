import type { Engine, PoolTimers } from '@inkling/scheduler';
import type { FimEndpoint } from './fillInTheMiddle.js';
import type { RequestStats } from './requestStats.js';
import type { ServerPriority } from './serverPriority.js';

/** The `fetch` an engine calls: the platform's, or one you pass in. */
export type FetchLike = (input: string, init: RequestInit) => Promise<Response>;

/** Options of `openaiEngines(...)`. */
export interface OpenAIEnginesOptions {
  /**
   * The API's base, as the OpenAI SDK takes it, `/v1` included:
   * `'http://localhost:8000/v1'` (vLLM), `'http://localhost:11434/v1'`
   * (Ollama), `'http://localhost:8080/v1'` (llama.cpp). Required.
   */
  baseURL: string;
  /** The model name the server knows, sent with every request. Required. */
  model: string;
  /**
   * Sent as `Authorization: Bearer ...`. Never logged, and kept out of every
   * error message and cause. In a browser, anyone can read a key the page
   * holds: give a page a short-lived or scoped key, or a proxy that adds it.
   * Default: none.
   */
  apiKey?: string;
  /** Extra headers for every request (an organisation, a proxy token). Default: none. */
  headers?: Record<string, string>;
  /** The `fetch` to call. Default: the global `fetch`, looked up when used. */
  fetch?: FetchLike;
  /**
   * Requests one engine runs at once; the pool gives it that many lanes.
   * Match it to what the server batches well (vLLM's `--max-num-seqs`,
   * llama.cpp's `--parallel`). Default `8`.
   */
  concurrency?: number;
  /**
   * Retries of a request that failed in a way that may pass: a 408, 429,
   * 502, 503 or 504, a `200` whose body is an error saying the model is not
   * ready ("Model is loading"), or a connection dropped before any answer
   * (after a few immediate resends, for kept-alive connections the server
   * closed). Each waits what `Retry-After` says, else 1 s, 2 s, 4 s... less
   * a random part of up to half (jitter), and at most `maxRetryDelayMs`.
   * Default `2`.
   */
  maxRetries?: number;
  /**
   * The longest wait for one retry, in ms. A server that asks for more
   * (`Retry-After`) gets no retry: the job ends with a `RateLimitError` that
   * carries its wait in `retryAfterMs`. `Infinity`: wait whatever it asks, up
   * to about 24.8 days. Default `20_000`.
   */
  maxRetryDelayMs?: number;
  /**
   * The longest wait, in ms, from sending a request to its response headers.
   * Past it the job ends with a `ConnectTimeoutError` (not fatal to the
   * engine); when building the engine, with a `ServerUnreachableError`. It
   * covers a server that is slow to answer at all: one still loading the
   * model (Ollama loads it on the first request) needs more. `Infinity`: no
   * limit. Default `30_000`.
   */
  connectTimeoutMs?: number;
  /**
   * The longest wait, in ms, for the next bytes of an answer once it has
   * begun. Past it the request is closed and the job ends with a
   * `StreamInterruptedError` that keeps the text so far. It must cover the
   * prefill of the longest prompt under load, since no bytes come before the
   * first token. `Infinity`: no limit. Default `60_000` (the read timeout of
   * many proxies).
   */
  stallTimeoutMs?: number;
  /**
   * The most bytes one server-sent event may take. A longer one ends the job
   * with a `MalformedStreamError` as soon as it passes the limit, rather than
   * holding an endless line in memory. `Infinity`: no limit. Default
   * `4 * 1024 * 1024` (4 MiB; a chunk of one token is a few hundred bytes).
   */
  maxEventBytes?: number;
  /**
   * The most bytes one answer may take, a stream's events or a whole JSON
   * answer (embeddings) alike. Past it the request is closed and the job
   * ends with a `StreamInterruptedError` that keeps the text so far: a
   * server that ignores `max_tokens` or loops holds no memory past it.
   * `Infinity`: no limit. Default `64 * 1024 * 1024` (64 MiB).
   */
  maxResponseBytes?: number;
  /**
   * The longest one answer may take, in ms, from its response headers to its
   * end (the wait for the headers is `connectTimeoutMs`). Past it the
   * request is closed and the job ends with a `StreamInterruptedError` that
   * keeps the text so far: a server that trickles tokens without end holds
   * no lane past it. `Infinity`: no limit. Default `600_000` (10 minutes).
   *
   * Besides these, a stream ends at the request's own `max_tokens`
   * whatever the server does: past that many pieces of output the request
   * is closed and the job finishes with `finishReason: 'length'`.
   */
  maxResponseMs?: number;
  /** Timers for the retry waits and the timeouts, injectable for tests. Default: the global ones, looked up when used. */
  timers?: PoolTimers;
  /** Random numbers in [0, 1) for the jitter of retry waits, injectable for tests. Default `Math.random`. */
  random?: () => number;
  /** Wall clock in milliseconds, for `Retry-After` given as a date. Default `Date.now`. */
  now?: () => number;
  /**
   * Tell the server each job's band, for a server that schedules by it.
   * `'vllm'`: body `priority`, lower first (launch vLLM with
   * `--scheduling-policy priority`: without it any value but 0 is refused);
   * `'sglang'`: body `priority`, higher first, bands 11 apart to pass its
   * preemption threshold (`--enable-priority-scheduling`); `'dynamo'`:
   * `nvext.agent_hints.priority`, higher first, for Dynamo 1.1.0 and later
   * (earlier releases passed the number to the worker unchanged, which
   * inverts it behind vLLM: send `{ field: 'nvext.agent_hints.priority',
   * map: PRIORITY_PRESETS.vllm.map }` there). Or your own
   * `{ field, map }` (a dotted path for nested fields) or `{ header, map }`
   * giving each band's number. See `PRIORITY_PRESETS`. Default: off, no
   * field or header is sent.
   */
  priority?: ServerPriority;
  /**
   * Tell the server which jobs belong together, so that a router sends a
   * session's requests to the replica whose cache holds its prompt:
   * `promptCacheKey` sends the job's `session` as `prompt_cache_key`
   * (OpenAI and gateways that route by it), `header` sends it in that header
   * (percent-encoded; e.g. `'x-session-affinity'`). Jobs without a session
   * send nothing. Default: off.
   */
  sessionAffinity?: { promptCacheKey?: boolean; header?: string };
  /**
   * llama.cpp's server: ask it to keep each prompt (`cache_prompt: true`) and
   * pin each session to one slot (`id_slot`), so a person's keystrokes keep
   * hitting the slot that holds their prompt instead of whichever is free.
   * The number of slots (`--parallel`), or `'auto'` to read it once from
   * `GET /props` (`total_slots`) or `GET /slots` when the engine is built; a
   * server that answers neither gets `cache_prompt` alone. A pinned request
   * waits for its slot if that slot is busy, so give the server at least one
   * slot per editor besides the batch. Default: off.
   */
  slots?: number | 'auto';
  /** Sent as `cache_salt` (vLLM): requests with different salts never share a prefix cache, for tenants that must not. Default: none. */
  cacheSalt?: string;
  /**
   * Whether the pool's spare lane (kept for a job of another task, such as a
   * keystroke's ghost text) is one of `concurrency`. `true`: a batch uses
   * `concurrency - 1` lanes. `false`, for a server that preempts by priority
   * itself (with `priority` set): a batch may use all `concurrency`, and the
   * engine takes one lane more for the spare, so a keystroke's request still
   * goes out at once and the server runs it first. Default `true`.
   */
  reserveLane?: boolean;
  /**
   * Fill-in-the-middle for jobs whose params carry `fim` (see `fimParams`):
   * `'completions'` sends them to `/completions` with `prompt` and `suffix`
   * (vLLM, Ollama, DeepSeek, with a model that has FIM tokens); `'infill'` to
   * llama.cpp's `/infill`. Other jobs, and every job when this is off, go to
   * `/chat/completions` (with `fim` left out). Default: off.
   */
  fim?: FimEndpoint;
}

/**
 * An `Engine` over an OpenAI-compatible server. It runs up to `concurrency`
 * requests at once; each honours its own `signal`, and `interruptGenerate()`
 * aborts every request in flight on this engine.
 */
export interface OpenAIEngine extends Engine {
  readonly concurrency: number;
  readonly model: string;
  embeddings: NonNullable<Engine['embeddings']>;
  unload(): Promise<void>;
  /** Requests in flight now. */
  readonly inFlight: number;
  /** What this engine sent so far: requests, retries, busy answers, busy answers handed to interactive jobs at once. */
  readonly requestStats: Readonly<RequestStats>;
}
