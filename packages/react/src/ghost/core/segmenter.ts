/**
 * An `Intl.Segmenter` of `granularity`, or `undefined` where the runtime has
 * none (callers then fall back to code units and spaces). Built per call:
 * callers run once per request or per accepted word, not per keystroke.
 *
 * @example
 * const words = segmenter('word', 'ja');
 * if (words) for (const { segment, isWordLike } of words.segment('今日は良い天気')) console.log(segment, isWordLike);
 */
export function segmenter(granularity: 'word' | 'grapheme', locale?: string): Intl.Segmenter | undefined {
  return typeof Intl.Segmenter === 'function' ? new Intl.Segmenter(locale, { granularity }) : undefined;
}
