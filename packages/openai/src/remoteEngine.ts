import {
  type ChatCompletionChunk,
  type CreateEmbeddingResponse,
  type EmbeddingCreateParams,
  type EngineCallOptions,
  EngineError,
  type StreamingChatCompletionRequest,
} from '@inkling/scheduler';
import { CallsInFlight, requestedSchema } from '@inkling/scheduler/engine';
import { ChunkNormalizer } from './chunkNormalizer.js';
import { chatStream } from './chatStream.js';
import { MalformedStreamError } from './errors.js';
import { type FimEndpoint, fimOf, fimRequest, infillChunk } from './fillInTheMiddle.js';
import { type RequestHints, applyHints } from './requestHints.js';
import { type RequestContext, type RequestStats, sendRequest } from './sendRequest.js';
import type { OpenAIEngine } from './types.js';

/** What a `RemoteEngine` is built with besides its request context. */
export interface RemoteEngineSettings {
  /** Lanes the pool gives it. */
  readonly lanes: number;
  readonly hints: RequestHints;
  readonly fim: FimEndpoint | undefined;
}

/**
 * One engine over an OpenAI-compatible server: each call is one HTTP request
 * with its own `AbortController`, aborted by the call's `signal`, by
 * `interruptGenerate()` (every call in flight) and by `unload()`. Aborting
 * closes the connection, which is how a server learns to stop generating.
 *
 * Built by `openaiEngines`; the pool gives it `concurrency` lanes.
 *
 * @example
 * const engine = await openaiEngines({ baseURL, model })(0, () => {});
 * const stream = await engine.chat.completions.create({ messages, stream: true });
 */
export class RemoteEngine implements OpenAIEngine {
  readonly concurrency: number;
  readonly model: string;
  readonly chat: OpenAIEngine['chat'];
  readonly embeddings: OpenAIEngine['embeddings'];
  readonly #context: RequestContext;
  readonly #settings: RemoteEngineSettings;
  readonly #calls = new CallsInFlight();
  #unloaded = false;

  constructor(context: RequestContext, settings: RemoteEngineSettings) {
    this.#context = context;
    this.#settings = settings;
    this.concurrency = settings.lanes;
    this.model = context.endpoint.model;
    this.chat = { completions: { create: (request, options) => this.#createChat(request, options) } };
    this.embeddings = { create: (request, options) => this.#createEmbeddings(request, options) };
  }

  get inFlight(): number {
    return this.#calls.size;
  }

  get requestStats(): Readonly<RequestStats> {
    return { ...this.#context.stats };
  }

  /** Aborts every request in flight on this engine; they end with `finish_reason: 'abort'`. */
  interruptGenerate(): void {
    this.#calls.interrupt();
  }

  /** Aborts every request in flight; later calls fail. */
  async unload(): Promise<void> {
    this.#unloaded = true;
    this.interruptGenerate();
  }

  async #createChat(request: StreamingChatCompletionRequest, options: EngineCallOptions = {}): Promise<AsyncIterable<ChatCompletionChunk>> {
    // A schema no engine can enforce ends the job here, before any request; the server constrains the rest.
    requestedSchema(request);
    const { signal, release } = this.#open(options.signal);
    const { hints, fim } = this.#settings;
    let response: Response | undefined;
    let path = '/chat/completions';
    try {
      // The engine's model wins over one in the params: an engine is one model.
      // `fim` (see `fimParams`) is for this engine, not the server.
      const { fim: _fim, ...chat } = request as typeof request & { fim?: unknown };
      let body: Record<string, unknown> = {
        ...chat,
        model: this.model,
        stream: true,
        stream_options: { ...request.stream_options, include_usage: true },
      };
      const headers = applyHints(body, options.job, hints);
      const text = fim ? fimOf(request) : undefined;
      if (fim && text) ({ path, body } = fimRequest(fim, { ...body, fim: text }, this.model));
      response = await sendRequest(this.#context, path, body, signal, {
        accept: 'text/event-stream',
        headers,
        root: path === '/infill',
        ...(options.job ? { priority: options.job.priority } : {}),
      });
    } catch (error) {
      release();
      throw error;
    }
    if (!response) {
      release();
      return abortedStream(this.model);
    }
    const maxTokens = request.max_tokens ?? (request as { max_completion_tokens?: number | null }).max_completion_tokens;
    const bound = typeof maxTokens === 'number' && maxTokens >= 0 ? { maxTokens } : {};
    const route = path === '/infill' ? { path, adapt: infillChunk, ...bound } : { path, ...bound };
    return releasing(chatStream(response, this.#context, signal, route), release);
  }

  async #createEmbeddings(request: EmbeddingCreateParams, options: EngineCallOptions = {}): Promise<CreateEmbeddingResponse> {
    const { signal, release } = this.#open(options.signal);
    try {
      const sent: Record<string, unknown> = { ...request, model: this.model };
      const headers = applyHints(sent, options.job, {
        ...this.#settings.hints,
        promptCacheKey: false,
        llamaSlots: false,
        slots: undefined,
      });
      const response = await sendRequest(this.#context, '/embeddings', sent, signal, {
        headers,
        ...(options.job ? { priority: options.job.priority } : {}),
      });
      if (!response) throw abortError();
      // Already read whole by `wholeAnswer` (unless the server called it a stream).
      const text = await response.text();
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        // No cause: JSON.parse quotes the start of the text it choked on, which may be part of a key.
        const quote = this.#context.endpoint.redact(text).slice(0, 80);
        throw new MalformedStreamError(
          `The server at ${this.#context.endpoint.shown}/embeddings answered with something that is not JSON: "${quote}". Check that baseURL points at an OpenAI-compatible server.`,
        );
      }
      return this.#embeddingResponse(body);
    } finally {
      release();
    }
  }

  #embeddingResponse(body: unknown): CreateEmbeddingResponse {
    const raw = (body ?? {}) as { data?: unknown; model?: unknown; usage?: CreateEmbeddingResponse['usage'] };
    if (!Array.isArray(raw.data)) {
      throw new MalformedStreamError(
        `The server at ${this.#context.endpoint.shown}/embeddings answered without a "data" list. Check that model "${this.model}" makes embeddings.`,
      );
    }
    const data = (raw.data as Array<{ embedding: number[]; index?: number }>)
      .map((item, position) => ({ object: 'embedding' as const, embedding: item.embedding, index: item.index ?? position }))
      .toSorted((a, b) => a.index - b.index);
    const response: CreateEmbeddingResponse = { object: 'list', model: typeof raw.model === 'string' ? raw.model : this.model, data };
    if (raw.usage) response.usage = raw.usage;
    return response;
  }

  /** One call in flight, linked to its signal; `release` ends it and closes its connection. Safe to call twice. */
  #open(outer: AbortSignal | undefined): { signal: AbortSignal; release: () => void } {
    if (this.#unloaded) {
      throw new EngineError(
        `The engine for model "${this.model}" was unloaded. Submit jobs through a loaded pool; it builds a new engine.`,
      );
    }
    const call = this.#calls.open(outer);
    const release = () => {
      call.release();
      // Closes the connection if the body was not read to its end.
      call.abort();
    };
    return { signal: call.signal, release };
  }
}

/**
 * Wraps a stream so that the call is released however it ends, including a
 * `return()` before the first `next()`, which never runs a generator's `finally`.
 */
function releasing(
  stream: AsyncGenerator<ChatCompletionChunk, void, undefined>,
  release: () => void,
): AsyncGenerator<ChatCompletionChunk, void, undefined> {
  const wrapped = (async function* () {
    try {
      yield* stream;
    } finally {
      release();
    }
  })();
  const close = wrapped.return.bind(wrapped);
  wrapped.return = (value) => {
    release();
    return close(value);
  };
  return wrapped;
}

/** What a call aborted before the server answered streams: one `'abort'` finish, as WebLLM does. */
async function* abortedStream(model: string): AsyncGenerator<ChatCompletionChunk, void, undefined> {
  yield* new ChunkNormalizer(model).end('abort');
}

function abortError(): Error {
  return new DOMException('The request was aborted.', 'AbortError');
}
