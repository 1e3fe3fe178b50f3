/**
 * The default ghost-text request as it was before the prefix-stable prompt
 * (Inkling 0.1.0): the last 1,500 characters before the caret, then up to 400
 * after it. Kept here, frozen, as the baseline the benchmark compares against.
 */
import type { ChatCompletionRequest } from '@inkling/scheduler';

const SYSTEM_PROMPT = [
  'You are the autocomplete of a text editor.',
  'You get the text before the cursor and the text after it.',
  'Reply with only the text to insert at the cursor, so that it continues the text before the cursor naturally and fits the text after it: a few words, at most the rest of the sentence.',
  'Never repeat text you were given. No quotes, no explanations.',
  'If the cursor is inside a word, start with the rest of that word; if the next word needs a space before it, start with a space.',
].join(' ');

export function legacyGhostParams({
  before,
  after,
  maxTokens,
}: {
  before: string;
  after: string;
  maxTokens: number;
}): ChatCompletionRequest {
  const head = before.slice(-1500);
  const tail = after.slice(0, 400);
  const user = tail.trim()
    ? `<before_cursor>${head}</before_cursor>\n<after_cursor>${tail}</after_cursor>`
    : `<before_cursor>${head}</before_cursor>`;
  return {
    messages: [
      { role: 'system', content: SYSTEM_PROMPT },
      { role: 'user', content: user },
    ],
    max_tokens: maxTokens,
    temperature: 0,
  };
}
