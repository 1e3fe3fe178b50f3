import type { ChatCompletionChunk, ChatCompletionRequest } from '@inkling/scheduler';

/**
 * The text a streamed chunk adds (`''` for role, finish and usage chunks).
 *
 * @example
 * pool.submit({ params, onChunk: (chunk) => (text += chunkText(chunk)) });
 */
export function chunkText(chunk: ChatCompletionChunk): string {
  return chunk.choices?.[0]?.delta?.content ?? '';
}

/**
 * A prompt string as a one-message request; a request as it is.
 *
 * @example
 * toRequest('Hi'); // { messages: [{ role: 'user', content: 'Hi' }] }
 */
export function toRequest(input: string | ChatCompletionRequest): ChatCompletionRequest {
  return typeof input === 'string' ? { messages: [{ role: 'user', content: input }] } : input;
}
