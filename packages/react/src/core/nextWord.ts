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
  if (!text) return '';
  if (typeof Intl.Segmenter !== 'function') return /^[\s\p{P}]*[^\s\p{P}]*/u.exec(text)?.[0] || text;
  let end = 0;
  for (const segment of new Intl.Segmenter(locale, { granularity: 'word' }).segment(text)) {
    end = segment.index + segment.segment.length;
    if (segment.isWordLike) break;
  }
  return text.slice(0, end);
}
