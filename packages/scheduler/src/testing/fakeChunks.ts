import { type ChunkMeta, streamChunk, usageChunk as closingChunk } from '../chunk.js';
import type {
  ChatCompletionChunk,
  CreateEmbeddingResponse,
  EmbeddingCreateParams,
  FinishReason,
  StreamingChatCompletionRequest,
} from '../types.js';

/** A streamed chunk in WebLLM's shape, with `content` and the finish reason. */
export function contentChunk(meta: ChunkMeta, content: string, finish: FinishReason | null): ChatCompletionChunk {
  return streamChunk(meta, { role: 'assistant', content }, finish);
}

/** The last chunk: no choices, the usage with WebLLM's timings under `extra`. */
export function usageChunk(
  meta: ChunkMeta,
  { prompt, completion, started, firstAt }: { prompt: number; completion: number; started: number; firstAt: number },
): ChatCompletionChunk {
  const ended = now();
  const prefillS = Math.max((firstAt - started) / 1000, 1e-6);
  const decodeS = Math.max((ended - firstAt) / 1000, 1e-6);
  return closingChunk(meta, {
    prompt_tokens: prompt,
    completion_tokens: completion,
    total_tokens: prompt + completion,
    extra: {
      time_to_first_token_s: prefillS,
      prefill_tokens_per_s: prompt / prefillS,
      decode_tokens_per_s: Math.max(0, completion - 1) / decodeS,
      e2e_latency_s: (ended - started) / 1000,
    },
  });
}

export function now(): number {
  return Date.now();
}

export function splitWords(text: string): string[] {
  return text.match(/\s*\S+/g) ?? [];
}

export function promptTokens(request: StreamingChatCompletionRequest): number {
  return request.messages.reduce((n, m) => n + (typeof m.content === 'string' ? splitWords(m.content).length : 0), 0);
}

export function hashEmbedding(input: string): number[] {
  const vector = Array.from({ length: 8 }, () => 0);
  for (let i = 0; i < input.length; i += 1) {
    const slot = i % 8;
    vector[slot] = ((vector[slot] ?? 0) * 31 + input.charCodeAt(i)) % 1000;
  }
  const norm = Math.hypot(...vector) || 1;
  return vector.map((v) => v / norm);
}

export function abortError(): Error {
  const error = new Error('The request was aborted.');
  error.name = 'AbortError';
  return error;
}

/** The fake's answer to an embeddings request: a vector per input from `embed`, a token per word. */
export function embeddingList(request: EmbeddingCreateParams, embed: (input: string) => number[], model: string): CreateEmbeddingResponse {
  const inputs = Array.isArray(request.input) ? request.input : [request.input];
  const data = inputs.map((input, index) => ({
    object: 'embedding' as const,
    index,
    embedding: embed(typeof input === 'string' ? input : JSON.stringify(input)),
  }));
  const tokens = inputs.reduce<number>((n, input) => n + splitWords(String(input)).length, 0);
  return { object: 'list', model, data, usage: { prompt_tokens: tokens, total_tokens: tokens } };
}
