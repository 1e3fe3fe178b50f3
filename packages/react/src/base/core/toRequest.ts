import type { ChatCompletionRequest } from '@inkling/scheduler';

/**
 * A prompt string as a one-message request; a request as it is.
 *
 * @example
 * toRequest('Hi'); // { messages: [{ role: 'user', content: 'Hi' }] }
 */
export function toRequest(input: string | ChatCompletionRequest): ChatCompletionRequest {
  return typeof input === 'string' ? { messages: [{ role: 'user', content: input }] } : input;
}
