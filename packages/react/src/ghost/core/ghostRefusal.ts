import type { GhostContext } from './ghostPrompt.js';

/**
 * Where ghost text asks nothing, because a suggestion cannot help there.
 * Each rule can be turned off.
 */
export interface GhostRefusalRules {
  /** No request with the caret inside a word (a letter or digit on both sides). Default `true`. */
  readonly midWord?: boolean;
  /**
   * No request when more than this many characters follow the caret on its
   * line (trailing spaces not counted), as llama.vim's `max_line_suffix`.
   * Default `Infinity` (off): in prose, a caret mid-sentence is an edit the
   * suggestion is drawn for (the overlay moves the rest aside); a code
   * editor would pick `8`.
   */
  readonly maxLineSuffix?: number;
  /** No request while text is selected (`selectionStart` differs from the caret). Default `true`. */
  readonly selection?: boolean;
}

/** Why a request was not sent: one of the rules of `GhostRefusalRules`. */
export type GhostRefusal = 'mid-word' | 'line-suffix' | 'selection';

const ENDS_IN_WORD = /[\p{L}\p{N}]$/u;
const STARTS_WITH_WORD = /^[\p{L}\p{N}]/u;

/**
 * Which rule refuses a request at `context` (with `selected` characters
 * selected), or `null` when a suggestion may help.
 *
 * @example
 * ghostRefusal({ before: 'Hel', after: 'lo' }, 0, {}); // 'mid-word'
 */
export function ghostRefusal(context: GhostContext, selected: number, rules: GhostRefusalRules = {}): GhostRefusal | null {
  const { midWord = true, maxLineSuffix = Infinity, selection = true } = rules;
  if (selection && selected > 0) return 'selection';
  const { before, after } = context;
  if (midWord && ENDS_IN_WORD.test(before) && STARTS_WITH_WORD.test(after)) return 'mid-word';
  if (Number.isFinite(maxLineSuffix)) {
    const end = after.indexOf('\n');
    const rest = (end < 0 ? after : after.slice(0, end)).trimEnd();
    if (rest.length > maxLineSuffix) return 'line-suffix';
  }
  return null;
}
