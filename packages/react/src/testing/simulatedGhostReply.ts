import {
  ADJECTIVES,
  BE_FORMS,
  CONJUNCTIONS,
  DETERMINERS,
  GREETINGS,
  INFINITIVE_BEFORE_TO,
  MODALS,
  OWN_PHRASES,
  PLURAL_NOUNS,
  PREPOSITIONS,
  SLOTS,
  SUBJECTS,
  VOCABULARY,
  WHOLE_WORDS,
} from './phraseBank.js';

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

/** The words of the clause the text ends in, lower case: after the last punctuation, then after the last conjunction but the final word. */
function clauseWords(text: string): string[] {
  return wordsOf(text.split(/[.!?;:,\n()]/u).at(-1) ?? '', true);
}

/** The lower-case words of `text`; with `lastClause`, only those after its last conjunction but the final word. */
function wordsOf(text: string, lastClause = false): string[] {
  const all = (text.match(/\p{L}+/gu) ?? []).map((w) => w.toLowerCase());
  if (!lastClause) return all;
  const start = all.slice(0, -1).findLastIndex((w) => CONJUNCTIONS.has(w));
  return all.slice(start + 1);
}

// Words that take an object, so a pronoun after them is not a subject ("thank you", "see it").
const TAKES_OBJECT = new Set([
  'thank',
  'see',
  'let',
  'tell',
  'ask',
  'like',
  'love',
  'send',
  'share',
  'review',
  'check',
  'want',
  'need',
  'have',
]);
// Own phrases that only fit where the word opens its clause ("Today we shipped…", not "finish it today we shipped…").
const OPENING_ONLY = new Set(['hello', 'hi', 'dear', 'quick', 'once', 'today', 'tomorrow', 'next', 'it']);

const isPlural = (noun: string) => PLURAL_NOUNS.has(noun) || /[^su]s$/.test(noun);
const startsWithVowel = (phrase: string) => /^[aeiou]/i.test(phrase);

/** A noun for after a determiner: agreeing in number, "a" before a consonant, "an" before a vowel, a verb to follow when the noun is the clause's subject. */
function nounAfter(determiner: string, subject: boolean): readonly string[] {
  const number = DETERMINERS[determiner] ?? 'either';
  const singular = subject ? SLOTS.nounSubject : SLOTS.nounObject;
  const plural = subject ? SLOTS.nounSubjectPlural : SLOTS.nounObjectPlural;
  const nouns = number === 'singular' ? singular : number === 'plural' ? plural : [...singular, ...plural];
  if (determiner === 'a') return nouns.filter((p) => !startsWithVowel(p));
  if (determiner === 'an') return nouns.filter(startsWithVowel);
  return nouns;
}

/** The phrases that fit what the clause ending in `words` needs next. */
function phrasesFor(words: readonly string[], opensSentence: boolean): readonly string[] {
  const last = words.at(-1) ?? '';
  const prior = words.slice(0, -1);
  const previous = prior.at(-1) ?? '';
  // Nothing but greetings and determiners before: the word is in the clause's subject.
  const opensClause = prior.every((w) => GREETINGS.has(w) || w in DETERMINERS || ADJECTIVES.has(w));
  // Right after a comma or a conjunction: a new clause.
  if (!last) return SLOTS.clause;
  const own = OWN_PHRASES[last];
  if (own && (!OPENING_ONLY.has(last) || prior.length === 0)) return own;
  if (last in DETERMINERS) return nounAfter(last, opensClause);
  if (last === 'to') return INFINITIVE_BEFORE_TO.has(previous) ? SLOTS.baseVerb : SLOTS.nounPhrase;
  if (PREPOSITIONS.has(last)) return SLOTS.nounPhrase;
  if (MODALS.has(last)) return opensSentence ? SLOTS.question : SLOTS.baseVerb;
  if (CONJUNCTIONS.has(last)) return SLOTS.clause;
  const subject = SUBJECTS[last] ?? (last === 'it' ? 'verbSingular' : undefined);
  if (subject) return PREPOSITIONS.has(previous) || TAKES_OBJECT.has(previous) ? SLOTS.clauseEnd : SLOTS[subject];
  const be = BE_FORMS[last];
  if (be) return SLOTS[be];
  if (ADJECTIVES.has(last)) return previous in DETERMINERS ? nounAfter(previous, opensClause) : SLOTS.clauseEnd;
  // Any other word is taken for a noun: the subject, so a verb follows, or the clause's end.
  if (opensClause) return isPlural(last) ? SLOTS.verbPluralThing : SLOTS.verbSingular;
  return SLOTS.clauseEnd;
}

/**
 * A plausible short continuation of `before` for simulated ghost text,
 * chosen by what the sentence needs next: the rest of a half-typed word when
 * it knows one (never of a word that is whole already, such as "to"), then a
 * noun after "the" ("a" and "an" each before the right sound), a noun phrase
 * after a preposition, a verb that agrees after a subject, a base verb after
 * a modal or "want to", a clause after "and", a new sentence after a full
 * stop or a new line. The text picks among the phrases that fit, so
 * different text continues differently. It is spaced from the text, never
 * repeats the last word, and starts in lower case unless a sentence or a
 * line starts. Mid text (`after` not blank) it keeps to a few words.
 *
 * @example
 * simulatedGhostReply('I talked with Maria about', ''); // ' the end of the month.' (or another noun phrase)
 * simulatedGhostReply('I want to', ''); // ' send the slides this afternoon.' (or another verb)
 */
export function simulatedGhostReply(before: string, after: string): string {
  if (!before.trim()) return '';
  const partial = /(\p{L}+)$/u.exec(before)?.[1] ?? '';
  const completion = completionOf(partial);
  // A sentence or a line starts: capitals are right there.
  const sentenceOver = /[.!?]\s*$/.test(before) || /\n[ \t]*$/.test(before);
  const text = before + completion;
  const words = clauseWords(text);
  const opensSentence = wordsOf(text.split(/[.!?\n]/u).at(-1) ?? '').length === 1;
  const last = words.at(-1) ?? '';
  const fitting = sentenceOver ? SLOTS.sentence : phrasesFor(words, opensSentence);
  const fresh = fitting.filter(
    (phrase) =>
      phrase
        .split(' ', 1)[0]
        ?.toLowerCase()
        .replace(/[^\p{L}]/gu, '') !== last,
  );
  let phrase = pick(fresh.length > 0 ? fresh : SLOTS.clauseEnd, before);
  if (after.trim())
    phrase = phrase
      .split(' ')
      .slice(0, 3)
      .join(' ')
      .replace(/[.,!?]$/, '');
  const space = /\s$/.test(before) ? '' : ' ';
  return `${completion}${space}${phrase}`;
}
