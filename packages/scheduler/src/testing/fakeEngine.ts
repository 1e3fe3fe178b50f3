import { EngineCrashedError } from '../errors.js';
import type {
  ChatCompletionChunk,
  CreateEmbeddingResponse,
  EmbeddingCreateParams,
  Engine,
  EngineCallOptions,
  FinishReason,
  StreamingChatCompletionRequest,
} from '../types.js';
import { Lock } from './lock.js';
import { Sleeper } from './sleeper.js';

/** Options of `createFakeEngine`. */
export interface FakeEngineOptions {
  /**
   * What the engine answers: a string, or a function of the request.
   * Default: `'This is a simulated reply.'`
   */
  reply?: string | ((request: StreamingChatCompletionRequest) => string);
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
}

/** One call the fake engine received, updated as it runs. */
export interface FakeEngineCall {
  readonly kind: 'chat' | 'embedding';
  readonly request: StreamingChatCompletionRequest | EmbeddingCreateParams;
  /**
   * `created`: `create()` returned, no `next()` yet. `waiting`: waiting for the
   * lock. `prefill`, `decoding`: generating. `closed`: left before it started.
   */
  state: 'created' | 'waiting' | 'prefill' | 'decoding' | 'done' | 'failed' | 'closed';
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
}

const DEFAULT_REPLY = 'This is a simulated reply.';

/**
 * Builds a fake engine that behaves like a WebLLM one: one generation at a
 * time behind a FIFO lock, the interrupt flag reset when a generation takes
 * the lock and checked between decode steps (never during prefill), a chunk
 * after prefill and one per decode step, a final chunk with `finish_reason`
 * (`'abort'` when interrupted, `'length'` at `max_tokens`), then a usage chunk.
 * Its delays run on `setTimeout`, so `vi.useFakeTimers()` controls them.
 *
 * @example
 * const engine = createFakeEngine({ reply: 'Bonjour', tokenMs: 30 });
 * const pool = new EnginePool({ createEngine: async () => engine });
 */
export function createFakeEngine(options: FakeEngineOptions = {}): FakeEngine {
  return new FakeEngineImpl(options);
}

class FakeEngineImpl implements FakeEngine {
  readonly concurrency: number;
  readonly calls: FakeEngineCall[] = [];
  interrupts = 0;
  readonly chat: FakeEngine['chat'];
  readonly embeddings: FakeEngine['embeddings'];
  readonly #options: FakeEngineOptions;
  readonly #lock: Lock;
  readonly #sleeper = new Sleeper();
  readonly #holders = new Set<FakeEngineCall>();
  #flag = false;
  #failure: { error: unknown; afterTokens?: number; fatal: boolean } | undefined;
  #death: unknown;
  #unloaded = false;
  #nextId = 0;

  constructor(options: FakeEngineOptions) {
    this.#options = options;
    this.concurrency = Math.max(1, Math.floor(options.concurrency ?? 1));
    this.#lock = new Lock(this.concurrency);
    this.chat = { completions: { create: (request, callOptions) => this.#createChat(request, callOptions) } };
    this.embeddings =
      options.embeddings === false
        ? undefined
        : { create: (request, callOptions) => this.#createEmbeddings(request, callOptions) };
  }

  get generating(): boolean {
    return this.#holders.size > 0;
  }

  get unloaded(): boolean {
    return this.#unloaded;
  }

  get dead(): boolean {
    return this.#death !== undefined;
  }

  interruptGenerate(): void {
    this.interrupts += 1;
    this.#flag = true;
    for (const call of this.#holders) call.interrupts += 1;
  }

  async unload(): Promise<void> {
    this.#unloaded = true;
    this.#sleeper.cancelAll(new Error('The fake engine was unloaded.'));
  }

  failNext(error: unknown = new Error('Simulated engine failure'), options: { afterTokens?: number; fatal?: boolean } = {}): void {
    this.#failure = { error, afterTokens: options.afterTokens, fatal: options.fatal === true };
  }

  die(error: unknown = new EngineCrashedError('The fake engine died (simulated).')): void {
    this.#death = error;
    this.#sleeper.cancelAll(error);
  }

  // ---------------------------------------------------------------- internals

  #usable(): void {
    if (this.#death !== undefined) throw this.#death;
    if (this.#unloaded) throw new Error('The fake engine was unloaded.');
  }

  /** A pending failure meant for this point, if any; consumed when taken. */
  #takeFailure(tokens: number | undefined): unknown {
    const failure = this.#failure;
    if (!failure || failure.afterTokens !== tokens) return undefined;
    this.#failure = undefined;
    if (failure.fatal) this.die(failure.error);
    return failure.error;
  }

  async #createChat(
    request: StreamingChatCompletionRequest,
    callOptions: EngineCallOptions = {},
  ): Promise<AsyncIterable<ChatCompletionChunk>> {
    this.#usable();
    const call: FakeEngineCall = {
      kind: 'chat',
      request,
      state: 'created',
      tokens: 0,
      interrupts: 0,
      tokensAfterInterrupt: 0,
    };
    this.calls.push(call);
    const failure = this.#takeFailure(undefined);
    if (failure !== undefined) {
      call.state = 'failed';
      call.error = failure;
      throw failure;
    }
    const generator = this.#generate(call, request, callOptions.signal);
    // WebLLM's stream does nothing until its first next(); one closed before
    // then never ran.
    const close = generator.return.bind(generator);
    generator.return = (value) => {
      if (call.state === 'created') call.state = 'closed';
      return close(value);
    };
    return generator;
  }

  async *#generate(
    call: FakeEngineCall,
    request: StreamingChatCompletionRequest,
    signal: AbortSignal | undefined,
  ): AsyncGenerator<ChatCompletionChunk, void, undefined> {
    call.state = 'waiting';
    const release = await this.#lock.acquire();
    this.#holders.add(call);
    const legacy = this.#options.mimic === '0.2.79';
    let leftEarly = true;
    try {
      this.#usable();
      if (!legacy) this.#flag = false; // 0.2.86: reset when the lock is taken
      const started = now();
      call.state = 'prefill';
      await this.#sleeper.sleep(this.#options.prefillMs ?? 0);
      const reply = this.#options.reply ?? DEFAULT_REPLY;
      const text = typeof reply === 'function' ? reply(request) : reply;
      const tokens = (this.#options.tokenize ?? splitWords)(text);
      const max = request.max_tokens ?? Number.POSITIVE_INFINITY;
      let finish: FinishReason = tokens.length > max ? 'length' : 'stop';
      const count = Math.min(tokens.length, max);
      const firstAt = now();
      call.state = 'decoding';
      for (let i = 0; i < count; i += 1) {
        if (i > 0) {
          if (this.#flag || (this.concurrency > 1 && signal?.aborted)) {
            finish = 'abort';
            if (legacy) this.#flag = false;
            break;
          }
          await this.#sleeper.sleep(this.#options.tokenMs ?? 0);
        }
        const failure = this.#takeFailure(i);
        if (failure !== undefined) throw failure;
        this.#usable();
        call.tokens += 1;
        if (call.interrupts > 0) call.tokensAfterInterrupt += 1;
        yield this.#chunk({ content: tokens[i] ?? '' }, null);
      }
      call.finishReason = finish;
      yield this.#chunk({ content: '' }, finish);
      const prompt = promptTokens(request);
      yield this.#usageChunk(prompt, call.tokens, started, firstAt);
      call.state = 'done';
      leftEarly = false;
    } catch (error) {
      call.state = 'failed';
      call.error = error;
      leftEarly = false;
      throw error;
    } finally {
      this.#holders.delete(call);
      // Leaving a started stream early released the lock from 0.2.86 on;
      // before that it never did, and every later call waited for ever.
      if (!(legacy && leftEarly)) release();
    }
  }

  async #createEmbeddings(request: EmbeddingCreateParams, callOptions: EngineCallOptions = {}): Promise<CreateEmbeddingResponse> {
    this.#usable();
    const call: FakeEngineCall = { kind: 'embedding', request, state: 'waiting', tokens: 0, interrupts: 0, tokensAfterInterrupt: 0 };
    this.calls.push(call);
    const release = await this.#lock.acquire();
    try {
      const failure = this.#takeFailure(undefined) ?? this.#takeFailure(0);
      if (failure !== undefined) throw failure;
      this.#usable();
      call.state = 'prefill';
      await this.#sleeper.sleep(this.#options.prefillMs ?? 0);
      if (this.concurrency > 1 && callOptions.signal?.aborted) throw abortError();
      const inputs = Array.isArray(request.input) ? request.input : [request.input];
      const embed = this.#options.embed ?? hashEmbedding;
      const data = inputs.map((input, index) => ({
        object: 'embedding' as const,
        index,
        embedding: embed(typeof input === 'string' ? input : JSON.stringify(input)),
      }));
      const tokens = inputs.reduce<number>((n, input) => n + splitWords(String(input)).length, 0);
      call.state = 'done';
      return {
        object: 'list',
        model: this.#options.model ?? 'fake-model',
        data,
        usage: { prompt_tokens: tokens, total_tokens: tokens },
      };
    } catch (error) {
      call.state = 'failed';
      call.error = error;
      throw error;
    } finally {
      release();
    }
  }

  #chunk(delta: { content: string }, finish: FinishReason | null): ChatCompletionChunk {
    return {
      id: `chatcmpl-fake-${++this.#nextId}`,
      object: 'chat.completion.chunk',
      created: Math.floor(Date.now() / 1000),
      model: this.#options.model ?? 'fake-model',
      choices: [{ index: 0, delta: { role: 'assistant', ...delta }, finish_reason: finish, logprobs: null }],
    };
  }

  #usageChunk(prompt: number, completion: number, started: number, firstAt: number): ChatCompletionChunk {
    const ended = now();
    const prefillS = Math.max((firstAt - started) / 1000, 1e-6);
    const decodeS = Math.max((ended - firstAt) / 1000, 1e-6);
    return {
      ...this.#chunk({ content: '' }, null),
      choices: [],
      usage: {
        prompt_tokens: prompt,
        completion_tokens: completion,
        total_tokens: prompt + completion,
        extra: {
          time_to_first_token_s: prefillS,
          prefill_tokens_per_s: prompt / prefillS,
          decode_tokens_per_s: Math.max(0, completion - 1) / decodeS,
          e2e_latency_s: (ended - started) / 1000,
        },
      },
    };
  }
}

function now(): number {
  return Date.now();
}

function splitWords(text: string): string[] {
  return text.match(/\s*\S+/g) ?? [];
}

function promptTokens(request: StreamingChatCompletionRequest): number {
  return request.messages.reduce((n, m) => n + (typeof m.content === 'string' ? splitWords(m.content).length : 0), 0);
}

function hashEmbedding(input: string): number[] {
  const vector = Array.from({ length: 8 }, () => 0);
  for (let i = 0; i < input.length; i += 1) {
    const slot = i % 8;
    vector[slot] = ((vector[slot] ?? 0) * 31 + input.charCodeAt(i)) % 1000;
  }
  const norm = Math.hypot(...vector) || 1;
  return vector.map((v) => v / norm);
}

function abortError(): Error {
  const error = new Error('The request was aborted.');
  error.name = 'AbortError';
  return error;
}
