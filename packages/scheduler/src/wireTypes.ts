import type { JsonSchema } from './jsonSchemaTypes.js';

// The wire: the OpenAI-shaped subset WebLLM speaks. Declared here, structurally, so the
// scheduler depends on nothing; WebLLM's own types are assignable to these.

/** A chat message in OpenAI's shape. */
export interface ChatMessage {
  role: 'system' | 'user' | 'assistant' | 'tool';
  content: string | null | ReadonlyArray<unknown>;
  [extra: string]: unknown;
}

/**
 * The parameters of a chat job, passed to the engine as they are (the pool adds
 * `stream: true` and asks for usage).
 */
export interface ChatCompletionRequest {
  messages: ChatMessage[];
  max_tokens?: number | null;
  temperature?: number | null;
  top_p?: number | null;
  stop?: string | string[] | null;
  seed?: number | null;
  logit_bias?: Record<string, number> | null;
  /**
   * What shape the answer must take. `json_schema` (OpenAI's shape) is the
   * portable one: every engine of the kit maps its schema onto its own
   * constrained decoding, or ends the job with `UnsupportedConstraintError`
   * before any token. `json_object` with a `schema` string is WebLLM's shape.
   */
  response_format?: ResponseFormat;
  [extra: string]: unknown;
}

/** The `response_format` of a chat request. */
export type ResponseFormat =
  | { type: 'text' }
  | { type: 'json_object'; schema?: string }
  | {
      type: 'json_schema';
      json_schema: { name?: string; description?: string; schema: JsonSchema; strict?: boolean | null };
    };

/** What the pool actually sends to `chat.completions.create`. */
export type StreamingChatCompletionRequest = ChatCompletionRequest & {
  stream: true;
  stream_options?: { include_usage?: boolean };
};

/** Why a generation ended, as WebLLM reports it. */
export type FinishReason = 'stop' | 'length' | 'abort' | 'tool_calls';

/** A tool call, complete (WebLLM emits them whole in the last chunk). */
export interface ToolCall {
  id?: string;
  type?: 'function';
  function: { name: string; arguments: string };
  [extra: string]: unknown;
}

/** Token counts; WebLLM adds timings under `extra`. */
export interface CompletionUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  /**
   * Prompt tokens the engine did not have to read again because its cache
   * already held them (llama.cpp's `timings.cache_n`, OpenAI's
   * `prompt_tokens_details.cached_tokens`, WebLLM's kept prefix). Absent when
   * the engine does not know.
   */
  cachedTokens?: number;
  extra?: Record<string, unknown>;
}

/** One streamed chunk in OpenAI's shape. The pool forwards it untouched. */
export interface ChatCompletionChunk {
  id: string;
  object?: 'chat.completion.chunk';
  created?: number;
  model?: string;
  choices: Array<{
    index?: number;
    delta: { content?: string | null; role?: string; tool_calls?: ToolCall[] };
    finish_reason: FinishReason | null;
    logprobs?: unknown;
  }>;
  usage?: CompletionUsage;
  [extra: string]: unknown;
}

/** The parameters of an embedding job. */
export interface EmbeddingCreateParams {
  input: string | string[] | number[] | number[][];
  model?: string | null;
  [extra: string]: unknown;
}

/** One vector of an embedding response. */
export interface Embedding {
  embedding: number[];
  index: number;
  object?: 'embedding';
}

/** An embedding response in OpenAI's shape. */
export interface CreateEmbeddingResponse {
  data: Embedding[];
  model?: string;
  object?: 'list';
  usage?: { prompt_tokens: number; total_tokens: number; extra?: Record<string, unknown> };
}

/**
 * The parameters of a translation job.
 *
 * @example
 * pool.submit({ kind: 'translation', params: { text: 'Good morning', from: 'en', to: 'fr' } });
 */
export interface TranslationParams {
  /** The text to translate. */
  text: string;
  /**
   * Target language: a BCP 47 code (`'fr'`). A chat engine also takes a name
   * (`'French'`); a native translator (Chrome's Translator API) needs a code.
   */
  to: string;
  /** Source language, the same way. Default: the engine works it out (a detector, or the model). */
  from?: string;
}
