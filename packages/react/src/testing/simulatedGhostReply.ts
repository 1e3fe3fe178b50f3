import { MIDDLES, OPENERS, PHRASES, VOCABULARY, WHOLE_WORDS } from './phraseBank.js';

/** A small deterministic hash (FNV-1a): different text, different choice. */
function hashText(text: string): number {
  let hash = 2166136261;
  for (let i = 0; i < text.length; i += 1) hash = Math.imul(hash ^ text.charCodeAt(i), 16777619);
  return hash >>> 0;
}

function pick<T>(options: readonly T[], seed: string): T {
  return options[hashText(seed) % options.length] as T;
}

/** The rest of a half-typed word, when `partial` is the start of a known word and not a word itself. */
function completionOf(partial: string): string {
  const lower = partial.toLowerCase();
  if (!lower || WHOLE_WORDS.has(lower)) return '';
  return VOCABULARY.find((w) => w.length > lower.length && w.startsWith(lower))?.slice(lower.length) ?? '';
}

/** A phrase for after `last`, never one that starts with `last` itself. */
function phraseAfter(last: string, sentenceOver: boolean, seed: string): string {
  const own = sentenceOver ? OPENERS : (PHRASES[last] ?? MIDDLES);
  const fresh = own.filter((phrase) => phrase.split(' ', 1)[0]?.toLowerCase().replace(/[^\p{L}]/gu, '') !== last);
  return pick(fresh.length > 0 ? fresh : MIDDLES, seed);
}

/**
 * A plausible short continuation of `before` for simulated ghost text: the
 * rest of a half-typed word when it knows one (never of a word that is
 * whole already, such as "to"), then a phrase chosen by the last word (and
 * the text, so different text continues differently). It is spaced from
 * the text, never repeats the last word, and starts in lower case unless a
 * sentence or a line starts. Mid text (`after` not blank) it keeps to a few words.
 *
 * @example
 * simulatedGhostReply('Thanks for the', ''); // ' meeting went well and everyone agreed on the plan.' (or another phrase)
 * simulatedGhostReply('I want to', ''); // ' the team before the end of the week.' (or another phrase)
 */
export function simulatedGhostReply(before: string, after: string): string {
  if (!before.trim()) return '';
  const partial = /(\p{L}+)$/u.exec(before)?.[1] ?? '';
  const completion = completionOf(partial);
  const last = (partial ? partial + completion : (/(\p{L}+)[^\p{L}]*$/u.exec(before)?.[1] ?? '')).toLowerCase();
  // A sentence or a line starts: capitals are right there.
  const sentenceOver = /[.!?]\s*$/.test(before) || /\n[ \t]*$/.test(before);
  let phrase = phraseAfter(last, sentenceOver, before);
  if (after.trim()) phrase = phrase.split(' ').slice(0, 3).join(' ').replace(/[.,!?]$/, '');
  const space = /\s$/.test(before) ? '' : ' ';
  return `${completion}${space}${phrase}`;
}
