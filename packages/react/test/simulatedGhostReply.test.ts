// @vitest-environment node
import { expect, it } from 'vitest';
import { VOCABULARY, WHOLE_WORDS } from '../src/testing/phraseBank.js';
import { simulatedGhostReply } from '../src/testing/simulatedGhostReply.js';

const STARTS = ['', 'Hello team, ', 'Notes from today: ', 'We agreed on the plan and ', 'Quick update. '];
// Today's words (every word the engine knew before it read the sentence, twice as before), then the
// function words whose next part it now chooses by: prepositions, determiners, subjects, modals, conjunctions.
const LAST_WORDS = [
  ...VOCABULARY.slice(0, 42),
  ...VOCABULARY,
  'want',
  'need',
  'editor',
  'notes',
  'Lisbon',
  'I',
  'Thanks',
  ...'about before after from at by your their these every they he she should could must but because if when'.split(' '),
];
// Half-typed words: the first letters of every word the engine knows.
const HALVES = VOCABULARY.flatMap((word) => [word.slice(0, 2), word.slice(0, 3), word.slice(0, -1)]).filter((half) => half.length > 1);

/** Every prefix: each start, then each whole or half-typed word, with or without a space after it. */
const PREFIXES = STARTS.flatMap((start) => [...LAST_WORDS, ...HALVES].flatMap((word) => [`${start}${word}`, `${start}${word} `]));

// The only capitals a continuation may open with mid-sentence: "I" and a day's name.
const PROPER = new Set(['I', 'Monday']);

function lastWordOf(text: string): string {
  return (/(\p{L}+)[^\p{L}]*$/u.exec(text)?.[1] ?? '').toLowerCase();
}

/** The reply split into the rest of a half-typed word (glued on), and what follows it. */
function split(before: string, reply: string): { glued: string; rest: string } {
  const glued = /\p{L}$/u.test(before) ? (/^\p{L}*/u.exec(reply)?.[0] ?? '') : '';
  return { glued, rest: reply.slice(glued.length) };
}

/** The prefixes whose reply breaks `rule`, with the reply: `[]` when none does. */
function breaking(prefixes: readonly string[], rule: (before: string, reply: string) => boolean, after = ''): string[] {
  return prefixes.flatMap((before) => {
    const reply = simulatedGhostReply(before, after);
    return rule(before, reply) ? [] : [`${JSON.stringify(before)} → ${JSON.stringify(reply)}`];
  });
}

/** Spaced from the text, or finishing a known half-typed word and then spaced. */
const spaced = (before: string, reply: string) => {
  if (/\s$/.test(before)) return /^\S/.test(reply);
  const { glued, rest } = split(before, reply);
  return /^ \S/.test(rest) && (glued === '' || VOCABULARY.includes(lastWordOf(before) + glued));
};

/** Not opening with the word just typed. */
const fresh = (before: string, reply: string) => {
  const { glued, rest } = split(before, reply);
  return (/\p{L}+/u.exec(rest)?.[0] ?? '').toLowerCase() !== lastWordOf(before + glued);
};

/** Lower case, but for "I" and a day's name. */
const lower = (before: string, reply: string) => {
  const first = /\p{L}+/u.exec(split(before, reply).rest)?.[0] ?? '';
  return PROPER.has(first) || first.charAt(0) === first.charAt(0).toLowerCase();
};

/** A few words, single-spaced. */
const short = (_: string, reply: string) => reply.trim().split(/\s+/).length <= 4 && !/\s{2}/.test(reply);

it('checks enough prefixes to matter', () => {
  expect(PREFIXES.length).toBeGreaterThan(1000);
});

it('is never glued to the word just typed: a space, or the rest of a half-typed word the engine knows', () => {
  expect(breaking(PREFIXES, spaced)).toEqual([]);
});

it('never completes a word that is whole already ("want to" is not "want today")', () => {
  const whole = PREFIXES.filter((text) => /\p{L}$/u.test(text) && WHOLE_WORDS.has(lastWordOf(text)));
  expect(whole.length).toBeGreaterThan(100);
  expect(breaking(whole, (_, reply) => /^\s/.test(reply))).toEqual([]);
  expect(simulatedGhostReply('I want to', '')).not.toMatch(/^day/);
  expect(simulatedGhostReply('I', '')).toMatch(/^ [a-z]/);
});

it('never starts by repeating the last word', () => {
  expect(breaking(PREFIXES, fresh)).toEqual([]);
});

it('starts in lower case mid-sentence, with a capital after a full stop or a new line', () => {
  expect(
    breaking(
      PREFIXES.filter((text) => !/[.!?]\s*$/.test(text)),
      lower,
    ),
  ).toEqual([]);
  expect(breaking(['Done.', 'Done. ', 'Shopping list\n', 'Is it ready? '], (_, reply) => /^\s?[A-Z]/.test(reply))).toEqual([]);
});

it('keeps to a few words mid-text, spaced the same way', () => {
  expect(breaking(PREFIXES.slice(0, 400), short, ' and the rest')).toEqual([]);
});

// What the sentence needs next, told by the test's own small grammar (not the engine's tables): the
// class of the word a prefix ends in, and the classes a continuation's first word may have after it.
const W = (list: string) => new Set(list.split(' '));
const T = {
  article: W('the a an my our your their these every this'),
  preposition: W('of in on for with about before after from at by'),
  subject: W('i we they he she'),
  modal: W('will can would should could must'),
  be: W('am is are was were be'),
  conjunction: W('and but or so because if when'),
};
const FIRST = {
  noun: W(
    'meeting step draft editor update idea results notes tests reply release team questions slides end plan week course meantime top morning way',
  ),
  adjective: W('next new quick whole open short few first'),
  determiner: W('the a an our my your this all'),
  name: W('Monday everyone you me us'),
  finite: W('am is are was think will can should need talked looks needs sent went look'),
  base: W('send be share check follow review take make'),
  complement: W('ready happy a almost still looking'),
  clauseStart: W('we I the everyone then it'),
};
const within = (word: string, ...classes: (keyof typeof FIRST)[]) => classes.some((c) => FIRST[c].has(word));
const firstWord = (before: string, reply: string) => /\p{L}+/u.exec(split(before, reply).rest)?.[0] ?? '';
const wordsOf = (text: string) => (text.match(/\p{L}+/gu) ?? []).map((w) => w.toLowerCase());
/** The prefixes that end, mid-sentence, in a word of `kind` (a whole word, typed or completed). */
const endingIn = (kind: Set<string>, unless: (words: string[], text: string) => boolean = () => false) =>
  PREFIXES.filter((text) => {
    if (/[.!?,]\s*$/.test(text)) return false;
    const words = wordsOf(text + split(text, simulatedGhostReply(text, '')).glued);
    return kind.has(words.at(-1) ?? '') && !unless(words, text);
  });

it('after an article or a possessive, a noun (or its adjective), in the right number and sound', () => {
  const prefixes = endingIn(T.article);
  expect(prefixes.length).toBeGreaterThan(50);
  expect(breaking(prefixes, (b, r) => within(firstWord(b, r), 'noun', 'adjective'))).toEqual([]);
  const an = prefixes.filter((t) => /\ban\s?$/.test(t));
  const a = prefixes.filter((t) => /\ba\s?$/.test(t));
  expect(an.length + a.length).toBeGreaterThan(10);
  expect(breaking(an, (b, r) => /^[aeiou]/.test(firstWord(b, r)))).toEqual([]);
  expect(breaking(a, (b, r) => !/^[aeiou]/.test(firstWord(b, r)))).toEqual([]);
  expect(
    breaking(
      prefixes.filter((t) => /\b(a|an|this|every)\s?$/.test(t)),
      (b, r) => !firstWord(b, r).endsWith('s'),
    ),
  ).toEqual([]);
});

it('inside a clause, the noun after an article ends it: no second verb ("thanks for the meeting went well")', () => {
  const inside = [
    'Thanks for the',
    'I talked with Maria about the',
    'We agreed on the',
    'I sent you a',
    'Please review our',
    'We looked at the ',
  ];
  expect(breaking(inside, (b, r) => !FIRST.finite.has(wordsOf(r)[1] ?? ''))).toEqual([]);
});

it('after a preposition, a noun phrase', () => {
  const prefixes = [...endingIn(T.preposition), 'I talked with Maria about', 'Send it to', 'before', 'We met after'];
  expect(prefixes.length).toBeGreaterThan(50);
  expect(breaking(prefixes, (b, r) => within(firstWord(b, r), 'determiner', 'noun', 'adjective', 'name'))).toEqual([]);
});

/** The verb agrees with the subject just typed ("I am", "we are", "he is"). */
function agrees(b: string, r: string): boolean {
  const [subject, verb] = [wordsOf(b + split(b, r).glued).at(-1), firstWord(b, r)];
  if (subject === 'i') return !['is', 'are', 'was', 'looks', 'needs'].includes(verb);
  if (subject === 'he' || subject === 'she') return !['am', 'are', 'need', 'look', 'think'].includes(verb);
  return !['am', 'is', 'was', 'looks', 'needs'].includes(verb);
}

it('after a subject, a verb that agrees with it', () => {
  const prefixes = endingIn(T.subject);
  expect(prefixes.length).toBeGreaterThan(30);
  expect(breaking(prefixes, (b, r) => within(firstWord(b, r), 'finite'))).toEqual([]);
  expect(breaking(prefixes, agrees)).toEqual([]);
  expect(breaking(['The notes', 'Our results', 'The team', 'The project'], (b, r) => within(firstWord(b, r), 'finite'))).toEqual([]);
});

it('after a modal or an infinitive\'s "to", a verb\'s base form; a modal that opens a sentence asks', () => {
  const prefixes = [
    ...endingIn(T.modal, (_, text) => wordsOf(text.split(/[.!?\n]/).at(-1) ?? '').length === 1),
    'I want to',
    'We need to',
    'It is going to',
  ];
  expect(prefixes.length).toBeGreaterThan(30);
  expect(breaking(prefixes, (b, r) => within(firstWord(b, r), 'base'))).toEqual([]);
  expect(breaking(['Can', 'Would', 'Will'], (_, r) => r.endsWith('?') && within(firstWord('', r), 'clauseStart', 'name'))).toEqual([]);
});

it('after a form of "be", what it says the subject is', () => {
  const prefixes = endingIn(T.be);
  expect(prefixes.length).toBeGreaterThan(30);
  expect(breaking(prefixes, (b, r) => within(firstWord(b, r), 'complement'))).toEqual([]);
});

it('after a conjunction or a comma, a whole clause, subject first', () => {
  const prefixes = [...endingIn(T.conjunction), 'Hello team, ', 'We agreed on the plan and ', 'Done, and'];
  expect(prefixes.length).toBeGreaterThan(30);
  expect(breaking(prefixes, (b, r) => within(firstWord(b, r), 'clauseStart'))).toEqual([]);
});

it('after a finished clause, a new sentence', () => {
  const prefixes = PREFIXES.filter((t) => /[.!?]\s*$/.test(t)).concat(['We shipped it.', 'Is it ready?', 'Notes\n']);
  expect(breaking(prefixes, (b, r) => /^\s?[A-Z]\S* /.test(r) && /[.!?]$/.test(r))).toEqual([]);
});
