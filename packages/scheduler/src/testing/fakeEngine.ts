import { EngineCrashedError } from '../errors.js';
import { requestedSchema } from '../responseFormat.js';
import { UnsupportedConstraintError } from '../schemaErrors.js';
import type {
  ChatCompletionChunk,
  CreateEmbeddingResponse,
  EmbeddingCreateParams,
  EngineCallOptions,
  FinishReason,
  StreamingChatCompletionRequest,
  ToolCall,
} from '../types.js';
import type { ChunkMeta } from '../chunk.js';
import { abortError, contentChunk, embeddingList, hashEmbedding, now, promptTokens, splitWords, usageChunk } from './fakeChunks.js';
import type { FakeEngine, FakeEngineCall, FakeEngineOptions } from './fakeEngineTypes.js';
import { Lock } from './lock.js';
import { fakeToolCalls, jsonTokens, schemaInstance, seedOf } from './schemaInstance.js';
import { Sleeper } from './sleeper.js';

export type { FakeEngine, FakeEngineCall, FakeEngineOptions } from './fakeEngineTypes.js';

const DEFAULT_REPLY = 'This is a simulated reply.';

/**
 * Builds a fake engine that behaves like a WebLLM one: one generation at a
 * time behind a FIFO lock, the interrupt flag reset when a generation takes
 * the lock and checked between decode steps (never during prefill), a chunk
 * after prefill and one per decode step, a final chunk with `finish_reason`
 * (`'abort'` when interrupted, `'length'` at `max_tokens`), then a usage chunk.
 * Its delays run on `setTimeout`, so `vi.useFakeTimers()` controls them.
 *
 * It also misbehaves on request, as real engines sometimes do: `failNext`,
 * `die`, and the wedges `hangCreate`, `hangAfterTokens`, `ignoreInterrupt`
 * and `hangNext` (a wedge ends only when the engine dies or is unloaded).
 *
 * @example
 * const engine = createFakeEngine({ reply: 'Bonjour', tokenMs: 30 });
 * const pool = new EnginePool({ createEngine: async () => engine });
 *
 * @example
 * // A stream that stops after two tokens and ignores interruptGenerate().
 * const wedged = createFakeEngine({ hangAfterTokens: 2 });
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
  #hang: { afterTokens?: number } | undefined;
  #death: unknown;
  #unloaded = false;
  #nextId = 0;

  constructor(options: FakeEngineOptions) {
    this.#options = options;
    this.concurrency = Math.max(1, Math.floor(options.concurrency ?? 1));
    this.#lock = new Lock(this.concurrency);
    this.chat = { completions: { create: (request, callOptions) => this.#createChat(request, callOptions) } };
    this.embeddings =
      options.embeddings === false ? undefined : { create: (request, callOptions) => this.#createEmbeddings(request, callOptions) };
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

  /** The id and model the next chunk carries. */
  #meta(): ChunkMeta {
    return { id: `chatcmpl-fake-${++this.#nextId}`, model: this.#options.model ?? 'fake-model' };
  }

  hangNext(options: { afterTokens?: number } = {}): void {
    this.#hang = { afterTokens: options.afterTokens };
  }

  // ---------------------------------------------------------------- internals

  /** Wedges `call` at this point (`undefined`: in `create()`) if a hang is due; ends only by death or unload. */
  async #maybeHang(call: FakeEngineCall, tokens: number | undefined): Promise<void> {
    const { hangCreate, hangAfterTokens } = this.#options;
    const pending = this.#hang !== undefined && this.#hang.afterTokens === tokens;
    if (pending) this.#hang = undefined;
    const due = pending || (tokens === undefined ? hangCreate === true : hangAfterTokens === tokens);
    if (!due) return;
    call.state = 'hung';
    await this.#sleeper.forever();
  }

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
    if (failure !== undefined) failed(call, failure);
    try {
      await this.#maybeHang(call, undefined);
    } catch (error) {
      failed(call, error);
    }
    let answer: string | undefined;
    let toolCalls: ToolCall[] | undefined;
    try {
      const schema = requestedSchema(request);
      if (schema !== undefined && this.#options.constrain === false) {
        throw new UnsupportedConstraintError(
          'This engine cannot constrain its output to a schema; use an engine that can, or ask for the object by prompt and check it afterwards.',
        );
      }
      if (schema !== undefined) {
        answer = JSON.stringify(schemaInstance(schema, seedOf(JSON.stringify(request.messages)), this.#options.objectSource?.(request)));
      }
      toolCalls = fakeToolCalls(request);
    } catch (error) {
      failed(call, error);
    }
    call.state = 'created';
    const generator = this.#generate(call, request, callOptions.signal, answer, toolCalls);
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
    answer?: string,
    toolCalls?: ToolCall[],
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
      const tokens = this.#replyTokens(request, answer, toolCalls);
      const max = request.max_tokens ?? Number.POSITIVE_INFINITY;
      let finish: FinishReason = tokens.length > max ? 'length' : 'stop';
      const count = Math.min(tokens.length, max);
      const firstAt = now();
      call.state = 'decoding';
      for (let i = 0; i < count; i += 1) {
        await this.#maybeHang(call, i);
        if (i > 0) {
          if (this.#interrupted(signal)) {
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
        yield contentChunk(this.#meta(), tokens[i] ?? '', null);
      }
      call.finishReason = toolCalls !== undefined && finish !== 'abort' ? 'tool_calls' : finish;
      yield this.#finalChunk(call.finishReason, toolCalls);
      const prompt = promptTokens(request);
      yield usageChunk(this.#meta(), { prompt, completion: call.tokens, started, firstAt });
      call.state = 'done';
      leftEarly = false;
    } catch (error) {
      leftEarly = false;
      failed(call, error);
    } finally {
      this.#holders.delete(call);
      // Leaving a started stream early released the lock from 0.2.86 on;
      // before that it never did, and every later call waited for ever.
      if (!(legacy && leftEarly)) release();
    }
  }

  /** What the reply says, as the tokens it streams: none for tool calls, the schema's instance, or `reply` cut by `tokenize`. */
  #replyTokens(request: StreamingChatCompletionRequest, answer: string | undefined, toolCalls: ToolCall[] | undefined): string[] {
    if (toolCalls !== undefined) return [];
    if (answer !== undefined) return jsonTokens(answer);
    const reply = this.#options.reply ?? DEFAULT_REPLY;
    return (this.#options.tokenize ?? splitWords)(typeof reply === 'function' ? reply(request) : reply);
  }

  /** Whether the decode loop stops here: the interrupt flag, or with several lanes the call's own signal (unless `ignoreInterrupt`). */
  #interrupted(signal: AbortSignal | undefined): boolean {
    return !this.#options.ignoreInterrupt && (this.#flag || (this.concurrency > 1 && signal?.aborted === true));
  }

  /** The chunk that ends a generation; WebLLM emits tool calls whole, in this chunk. */
  #finalChunk(finish: FinishReason, toolCalls: ToolCall[] | undefined): ChatCompletionChunk {
    const chunk = contentChunk(this.#meta(), '', finish);
    if (finish === 'tool_calls') (chunk.choices[0] as { delta: { tool_calls?: ToolCall[] } }).delta.tool_calls = toolCalls;
    return chunk;
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
      await this.#maybeHang(call, undefined);
      call.state = 'prefill';
      await this.#sleeper.sleep(this.#options.prefillMs ?? 0);
      if (this.concurrency > 1 && callOptions.signal?.aborted && !this.#options.ignoreInterrupt) throw abortError();
      const response = embeddingList(request, this.#options.embed ?? hashEmbedding, this.#options.model ?? 'fake-model');
      call.state = 'done';
      return response;
    } catch (error) {
      failed(call, error);
    } finally {
      release();
    }
  }
}

/** Marks `call` failed with `error`, and throws it. */
function failed(call: FakeEngineCall, error: unknown): never {
  call.state = 'failed';
  call.error = error;
  throw error;
}
