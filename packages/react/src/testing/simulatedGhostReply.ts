import { OPENERS, PHRASES, VOCABULARY } from './phraseBank.js';

/** A small deterministic hash (FNV-1a): different text, different choice. */
function hashText(text: string): number {
  let hash = 2166136261;
  for (let i = 0; i < text.length; i += 1) hash = Math.imul(hash ^ text.charCodeAt(i), 16777619);
  return hash >>> 0;
}

function pick<T>(options: readonly T[], seed: string): T {
  return options[hashText(seed) % options.length] as T;
}

/**
 * A plausible short continuation of `before` for simulated ghost text: the
 * rest of a half-typed word when it knows one, then a phrase chosen by the
 * last word (and the text, so different text continues differently). Mid
 * text (`after` not blank) it keeps to a few words.
 *
 * @example
 * simulatedGhostReply('Thanks for the', ''); // ' meeting went well and everyone agreed on the plan.' (or another phrase)
 */
export function simulatedGhostReply(before: string, after: string): string {
  if (!before.trim()) return '';
  const partial = /(\p{L}+)$/u.exec(before)?.[1] ?? '';
  let completion = '';
  let last = partial.toLowerCase();
  if (partial) {
    const word = VOCABULARY.find((w) => w.length > partial.length && w.startsWith(partial.toLowerCase()));
    if (word) {
      completion = word.slice(partial.length);
      last = word;
    }
  } else {
    last = /(\p{L}+)[^\p{L}]*$/u.exec(before)?.[1]?.toLowerCase() ?? '';
  }
  const sentenceOver = /[.!?]\s*$/.test(before);
  const phrases = sentenceOver ? OPENERS : (PHRASES[last] ?? OPENERS);
  let phrase = pick(phrases, before);
  if (after.trim()) phrase = phrase.split(' ').slice(0, 3).join(' ').replace(/[.,!?]$/, '');
  const space = /\s$/.test(before) ? '' : ' ';
  return `${completion}${space}${phrase}`;
}
