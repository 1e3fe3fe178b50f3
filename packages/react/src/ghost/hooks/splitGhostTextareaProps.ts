import type { GhostTextareaProps } from './ghostTextareaTypes.js';

/**
 * `GhostTextarea`'s props in three: the ghost text's options (for
 * `useGhostText`), the component's own, and the rest, which go to the
 * textarea as they are.
 *
 * @example
 * const { ghost, own, rest } = splitGhostTextareaProps({ 'aria-label': 'Note', debounceMs: 80, rows: 4 });
 * // ghost: { debounceMs: 80, … }, rest: { 'aria-label': 'Note', rows: 4 }
 */
export function splitGhostTextareaProps(props: GhostTextareaProps) {
  const { debounceMs, maxTokens, buildParams, locale, speculate, refuse, session, events, pause, adaptDebounce, adaptLength, ...others } =
    props;
  const { value, defaultValue, onChange, suggest = true, onAccept, messages, announceDelayMs = 700, rootClassName, ...more } = others;
  const { writingSuggestions = false, ...rest } = more;
  return {
    ghost: { debounceMs, maxTokens, buildParams, locale, speculate, refuse, session, events, pause, adaptDebounce, adaptLength },
    own: { value, defaultValue, onChange, suggest, onAccept, messages, announceDelayMs, rootClassName, writingSuggestions },
    rest,
  };
}
