import type { Engine, PoolTimers } from '@inkling/scheduler';

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
   * Retries of a request answered 429 (or 503 with `Retry-After`), waiting
   * what `Retry-After` says, else 1 s, 2 s, 4 s... Default `2`.
   */
  maxRetries?: number;
  /**
   * The longest wait for one retry. A server that asks for more gets no retry:
   * the job ends with a `RateLimitError` that carries its advice. Default `20_000`.
   */
  maxRetryDelayMs?: number;
  /** Timers for the retry waits, injectable for tests. Default: the global ones, looked up when used. */
  timers?: PoolTimers;
  /** Wall clock in milliseconds, for `Retry-After` given as a date. Default `Date.now`. */
  now?: () => number;
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
}
