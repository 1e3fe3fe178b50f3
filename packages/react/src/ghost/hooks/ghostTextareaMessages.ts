import type { GhostTextareaMessages } from './ghostTextareaTypes.js';

/**
 * The live region's and the error line's words in English, the default of
 * `messages`; a caller's partial `messages` overrides them one by one.
 *
 * @example
 * const available = messages?.available ?? DEFAULT_MESSAGES.available;
 */
export const DEFAULT_MESSAGES: GhostTextareaMessages = {
  suggestion: (text) => {
    const words = text.trim();
    return `Suggestion: ${words}${/[.!?…]$/u.test(words) ? '' : '.'}`;
  },
  available:
    'Press Tab or tap the suggestion to accept it, Control or Alt plus Right Arrow to accept one word, Alt plus F2 to hear it again, Escape to dismiss.',
  error: (error) => `Suggestions are unavailable: ${error.message}`,
};

/**
 * What the live region says for a settled suggestion (`''` while none is
 * settled), and the error line's message (`''` without an error), in the
 * caller's `messages` where given.
 *
 * @example
 * ghostTextareaWords(undefined, ' world', true, null).spoken; // 'Suggestion: world. Press Tab …'
 */
export function ghostTextareaWords(
  messages: Partial<GhostTextareaMessages> | undefined,
  suggestion: string,
  settled: boolean,
  error: Error | null,
  tellHow = true,
): { readonly spoken: string; readonly errorMessage: string } {
  const words = { ...DEFAULT_MESSAGES, ...messages };
  return {
    spoken: settled ? `${words.suggestion(suggestion)}${tellHow ? ` ${words.available}` : ''}` : '',
    errorMessage: error ? words.error(error) : '',
  };
}
