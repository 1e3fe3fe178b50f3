import { commonWords } from './commonWords.js';

/** llama.cpp's token types. */
const TYPE = { NORMAL: 1, UNKNOWN: 2, CONTROL: 3, BYTE: 6 } as const;

/**
 * SentencePiece's word-start marker, standing for a space.
 *
 * @example
 * testVocabulary().tokens.indexOf(`${SPACE_MARK}the`); // the id of " the"
 */
export const SPACE_MARK = '\u2581';

/** A SentencePiece-style vocabulary: pieces, their merge scores and types. */
export interface TestVocabulary {
  tokens: string[];
  scores: number[];
  types: number[];
}

/** How many of the most common words also get a capitalised, space-led piece. */
const CAPITALISED = 300;

/**
 * The test model's vocabulary, in llama.cpp's SentencePiece form: `<unk>`,
 * `<s>`, `</s>`; the 256 byte tokens `<0x00>`..`<0xFF>`, so any text
 * tokenizes (a character outside ASCII becomes its UTF-8 bytes: llama.cpp's
 * byte fallback); every printable ASCII character; and
 * each common word with and without the space marker, with every prefix of
 * those pieces, since SentencePiece builds a piece by merging neighbours that
 * are themselves pieces. Longer pieces score higher, so merging goes on to
 * whole words: prose tokenizes at about four characters a token.
 *
 * @example
 * const { tokens } = testVocabulary();
 * tokens.includes('\u2581the'); // true
 */
export function testVocabulary(): TestVocabulary {
  const tokens: string[] = [];
  const scores: number[] = [];
  const types: number[] = [];
  const seen = new Set<string>();
  const add = (piece: string, score: number, type: number) => {
    if (seen.has(piece)) return;
    seen.add(piece);
    tokens.push(piece);
    scores.push(score);
    types.push(type);
  };
  add('<unk>', 0, TYPE.UNKNOWN);
  add('<s>', 0, TYPE.CONTROL);
  add('</s>', 0, TYPE.CONTROL);
  for (let b = 0; b < 256; b += 1) add(`<0x${b.toString(16).toUpperCase().padStart(2, '0')}>`, 0, TYPE.BYTE);
  for (let c = 32; c < 127; c += 1) add(c === 32 ? SPACE_MARK : String.fromCharCode(c), 1, TYPE.NORMAL);
  for (const [rank, word] of commonWords.entries()) {
    const variants = [SPACE_MARK + word, word];
    if (rank < CAPITALISED) variants.push(SPACE_MARK + word[0]!.toUpperCase() + word.slice(1));
    for (const piece of variants) {
      const chars = [...piece];
      // Longer first wins ties at equal length by frequency (earlier words score a little more).
      for (let n = 2; n <= chars.length; n += 1) add(chars.slice(0, n).join(''), n - rank / 10_000, TYPE.NORMAL);
    }
  }
  return { tokens, scores, types };
}
