import type { ChatCompletionChunk, ChatCompletionRequest } from '@inkling/scheduler';

/** The text a streamed chunk adds ('' for role, finish and usage chunks). */
export function chunkText(chunk: ChatCompletionChunk): string {
  return chunk.choices?.[0]?.delta?.content ?? '';
}

/** A prompt string as a one-message request; a request as it is. */
export function toRequest(input: string | ChatCompletionRequest): ChatCompletionRequest {
  return typeof input === 'string' ? { messages: [{ role: 'user', content: input }] } : input;
}
