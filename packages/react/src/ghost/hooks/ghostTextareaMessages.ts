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
