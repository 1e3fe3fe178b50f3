import { segmenter } from './segmenter.js';

/**
 * The start of `text` up to and including its first word, with any spaces or
 * punctuation before it, found with `Intl.Segmenter` so languages written
 * without spaces (Chinese, Japanese, Thai) split into real words.
 *
 * @example
 * nextWord(' quick brown fox'); // ' quick'
 * nextWord('今日は良い天気です', 'ja'); // '今日'
 */
export function nextWord(text: string, locale?: string): string {
  const words = segmenter('word', locale);
  if (!words) return /^[\s\p{P}]*[^\s\p{P}]*/u.exec(text)?.[0] || text;
  let end = 0;
  for (const { index, segment, isWordLike } of words.segment(text)) {
    end = index + segment.length;
    if (isWordLike) break;
  }
  return text.slice(0, end);
}
