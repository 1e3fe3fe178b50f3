import type { EmbeddingCreateParams, Engine, FinishReason, StreamingChatCompletionRequest } from '../types.js';

/** Options of `createFakeEngine`. */
export interface FakeEngineOptions {
  /**
   * What the engine answers: a string, or a function of the request.
   * Default: `'This is a simulated reply.'`
   */
  reply?: string | ((request: StreamingChatCompletionRequest) => string);
  /**
   * Whether the engine constrains its output to a request's JSON Schema
   * (`response_format: { type: 'json_schema' }`): it then answers with a
   * value that follows the schema, drawn from the prompt, instead of `reply`.
   * `false` ends such a request with `UnsupportedConstraintError` before any
   * token, as an engine without constrained decoding must. Default `true`.
   */
  constrain?: boolean;
  /**
   * The text a constrained answer's strings are taken from, as runs of its
   * words (e.g. the user's message, so an object "extracted" from a note
   * names what the note says); `undefined` for the default. Default: a fixed
   * mix of ASCII and non-ASCII words.
   */
  objectSource?: (request: StreamingChatCompletionRequest) => string | undefined;
  /** Splits a reply into tokens. Default: words, each with the spaces before it. */
  tokenize?: (text: string) => string[];
  /** Time from the first `next()` (with the lock held) to the first token. Default `0`. */
  prefillMs?: number;
  /** Time per decode step after the first token. Default `0`. */
  tokenMs?: number;
  /**
   * Generations run at once. Default `1`, like WebLLM (one generation per
   * model behind a FIFO lock). Above 1 it behaves like a server: each call
   * honours its `signal`, and the pool gives it that many lanes.
   */
  concurrency?: number;
  /**
   * Which WebLLM to mimic. `'0.2.86'` (default) resets the interrupt flag when
   * a generation takes the lock and releases the lock when a stream is left
   * early. `'0.2.79'` does neither: an interrupt sent while idle aborts the
   * next generation, and a stream left early holds the lock for ever.
   */
  mimic?: '0.2.86' | '0.2.79';
  /** Whether the engine makes embeddings. Default `true`. */
  embeddings?: boolean;
  /** Makes the vector for one input. Default: 8 numbers derived from the text. */
  embed?: (input: string) => number[];
  /** The model name chunks carry. Default `'fake-model'`. */
  model?: string;
  /**
   * A wedged engine: every `chat.completions.create()` and
   * `embeddings.create()` never answers, until the engine dies or is
   * unloaded (as terminating a worker would end it). Default `false`.
   */
  hangCreate?: boolean;
  /**
   * A wedged engine: every chat stream stops after this many tokens, holding
   * the lock and ignoring interrupts and its signal, until the engine dies or
   * is unloaded. Default: never.
   */
  hangAfterTokens?: number;
  /**
   * An engine deaf to stops: `interruptGenerate()` and a call's signal are
   * counted but never acted on, so every generation runs to its end.
   * Default `false`.
   */
  ignoreInterrupt?: boolean;
}

/** One call the fake engine received, updated as it runs. */
export interface FakeEngineCall {
  readonly kind: 'chat' | 'embedding';
  readonly request: StreamingChatCompletionRequest | EmbeddingCreateParams;
  /**
   * `created`: `create()` returned, no `next()` yet. `waiting`: waiting for the
   * lock. `prefill`, `decoding`: generating. `closed`: left before it started.
   * `hung`: wedged (see `hangCreate`, `hangAfterTokens`, `hangNext`) until the
   * engine dies or is unloaded.
   */
  state: 'created' | 'waiting' | 'prefill' | 'decoding' | 'hung' | 'done' | 'failed' | 'closed';
  /** Tokens generated so far. */
  tokens: number;
  /** Interrupts that arrived while this generation held the lock. */
  interrupts: number;
  /** Tokens generated after the first of those interrupts. */
  tokensAfterInterrupt: number;
  finishReason?: FinishReason;
  error?: unknown;
}

/** An `Engine` for tests and demos: deterministic, no GPU, WebLLM's behaviour. */
export interface FakeEngine extends Engine {
  readonly concurrency: number;
  /** Every call received, oldest first. */
  readonly calls: readonly FakeEngineCall[];
  /** `interruptGenerate()` calls received in all. */
  readonly interrupts: number;
  /** True while a generation holds the lock. */
  readonly generating: boolean;
  readonly unloaded: boolean;
  readonly dead: boolean;
  /**
   * Makes the next call fail with `error`: `create()` rejects, or with
   * `afterTokens` the stream throws after that many tokens. With `fatal` the
   * engine then dies for good.
   */
  failNext(error?: unknown, options?: { afterTokens?: number; fatal?: boolean }): void;
  /** Dies for good: running and later calls fail with a fatal error. */
  die(error?: unknown): void;
  /**
   * Wedges the next call: its `create()` never answers, or with `afterTokens`
   * its stream stops after that many tokens, deaf to interrupts, until the
   * engine dies or is unloaded.
   */
  hangNext(options?: { afterTokens?: number }): void;
}
