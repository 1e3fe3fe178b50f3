import type { GhostContext } from './ghostContext.js';
import { segmenter } from './segmenter.js';
import { splitsPair } from './surrogatePair.js';

/** Sizes of the context a ghost-text prompt carries (all in UTF-16 code units). */
export interface PromptWindowSizes {
  /** The least text before the caret kept (unless the text is shorter). Default `1500`. */
  readonly before: number;
  /**
   * The window's start moves in steps of this many characters, so that it
   * stays put while a person types and a prefix cache keeps matching. The
   * text before the caret kept is about `before` to `before + block` long
   * (less up to a word, as the start moves on to a word start). Default `256`.
   */
  readonly block: number;
  /** The most text after the caret kept. Default `400`. */
  readonly after: number;
}

/** What a ghost-text prompt shows of the text around the caret. */
export interface PromptWindow {
  /** The end of the text before the caret, from a word start that moves rarely. */
  readonly head: string;
  /** The start of the text after the caret. */
  readonly tail: string;
}

const DEFAULT_SIZES: PromptWindowSizes = { before: 1500, block: 256, after: 400 };

/** How far past a block boundary to look for a word start before settling for a character boundary. */
const SNAP_CHARS = 64;

/**
 * The part of the text around the caret a ghost-text prompt sends. The start
 * of `head` is anchored: it sits on a multiple of `block` (then moves forward
 * to the next word start), so typing, deleting and moving the caret within a
 * block leave it where it was, and consecutive prompts share their whole
 * beginning. No cut splits a surrogate pair, and where `Intl.Segmenter`
 * exists no cut splits a grapheme cluster (an emoji with its modifiers, a
 * letter with its accents).
 *
 * @example
 * const { head, tail } = promptWindow({ before: note.slice(0, caret), after: note.slice(caret) });
 */
export function promptWindow({ before, after }: GhostContext, sizes: PromptWindowSizes = DEFAULT_SIZES): PromptWindow {
  const overflow = before.length - sizes.before;
  const start = overflow > 0 ? wordStartFrom(before, Math.floor(overflow / sizes.block) * sizes.block) : 0;
  return { head: before.slice(start), tail: after.slice(0, boundaryAtOrBefore(after, sizes.after)) };
}

/**
 * The first word start at or after `from` (within `SNAP_CHARS`), else the first
 * character boundary there: a start that depends only on the text near `from`.
 */
function wordStartFrom(text: string, from: number): number {
  if (from <= 0) return 0;
  // A little context before `from`, so clusters and words that straddle it are seen whole.
  const lead = Math.max(0, from - 16);
  const piece = text.slice(lead, from + SNAP_CHARS);
  const words = segmenter('word');
  if (words) {
    let fallback: number | undefined;
    for (const { index, isWordLike } of words.segment(piece)) {
      const at = lead + index;
      if (at < from) continue; // `lead` is before `from`, so this also skips the piece's start
      fallback ??= at;
      if (isWordLike) return at;
    }
    if (fallback !== undefined) return fallback;
  } else {
    for (let at = from; at < lead + piece.length; at += 1) {
      if (/\s\S/.test(text.slice(at - 1, at + 1))) return at; // after a space: never inside a pair
    }
  }
  return splitsPair(text, from) ? from + 1 : from;
}

/** The last cluster boundary at or before `end` in `text` (a character boundary without `Intl.Segmenter`). */
function boundaryAtOrBefore(text: string, end: number): number {
  if (end >= text.length) return text.length;
  const graphemes = segmenter('grapheme');
  if (graphemes) {
    // A cluster is short: look a little past `end` to see the one that straddles it.
    const { index } = graphemes.segment(text.slice(0, end + 32)).containing(end) ?? { index: end };
    return index;
  }
  return splitsPair(text, end) ? end - 1 : end;
}
