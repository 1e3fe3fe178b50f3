import type { ChatCompletionRequest } from '@inkling/scheduler';
import type { LaneConversation, LanePipeline } from './lanePipeline.js';

/**
 * The prompt tokens WebLLM would prefill for `request` on an empty cache,
 * built the way its pipeline builds them (a new conversation of the model's
 * template, every message but the last appended, then the last and the
 * assistant's header; the system prefix tokens, then each part encoded), or
 * a reason the lanes leave the request to WebLLM (an image, a message order
 * WebLLM would refuse, a field only WebLLM's path reads).
 *
 * @example
 * const tokens = lanePromptTokens(pipeline, request);
 * if (typeof tokens === 'string') console.info(`one-sequence path: ${tokens}`);
 */
export function lanePromptTokens(p: LanePipeline, request: ChatCompletionRequest): number[] | string {
  const { messages } = request;
  if (!Array.isArray(messages) || messages.length === 0) return 'no messages';
  const last = messages.at(-1)!;
  if (last.role !== 'user' && last.role !== 'tool') return 'the last message is not from the user or a tool';
  const Conversation = p.conversation.constructor as new (config: object, isTextCompletion: boolean) => LaneConversation;
  const conversation = new Conversation({ ...p.config.conv_template, ...p.config.conv_config }, false);
  for (const [i, message] of messages.entries()) {
    const content = (message as { content?: unknown }).content;
    if (typeof content !== 'string') return 'a message whose content is not plain text';
    const name = (message as { name?: unknown }).name;
    if (message.role === 'system') {
      if (i !== 0) return 'a system message after the first';
      conversation.override_system_message = content;
    } else if (message.role === 'user' || message.role === 'assistant' || message.role === 'tool') {
      conversation.appendMessage(message.role, content, typeof name === 'string' ? name : undefined);
    } else {
      return `a message of role ${String(message.role)}`;
    }
  }
  conversation.appendReplyHeader('assistant');
  const tokens = [...(conversation.config.system_prefix_token_ids ?? [])];
  for (const part of conversation.getPromptArray(p.config)) {
    if (typeof part !== 'string') return 'an image in the prompt';
    for (const token of Array.from(p.tokenizer.encode(part))) tokens.push(token);
  }
  return tokens;
}

/** Stop strings of a request and of the model's template. */
export function laneStopStrings(p: LanePipeline, request: ChatCompletionRequest): string[] {
  const own = request.stop == null ? [] : Array.isArray(request.stop) ? request.stop : [request.stop];
  const template = (p.config.conv_template as { stop_str?: unknown }).stop_str;
  return [...own, ...(Array.isArray(template) ? (template as unknown[]) : [])].filter(
    (s): s is string => typeof s === 'string' && s.length > 0,
  );
}
