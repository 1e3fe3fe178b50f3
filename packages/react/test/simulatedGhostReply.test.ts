// @vitest-environment node
import { expect, it } from 'vitest';
import { PHRASES, VOCABULARY, WHOLE_WORDS } from '../src/testing/phraseBank.js';
import { simulatedGhostReply } from '../src/testing/simulatedGhostReply.js';

const STARTS = ['', 'Hello team, ', 'Notes from today: ', 'We agreed on the plan and ', 'Quick update. '];
const LAST_WORDS = [...Object.keys(PHRASES), ...VOCABULARY, 'want', 'need', 'editor', 'notes', 'Lisbon', 'I', 'Thanks'];
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
  expect(breaking(PREFIXES.filter((text) => !/[.!?]\s*$/.test(text)), lower)).toEqual([]);
  expect(breaking(['Done.', 'Done. ', 'Shopping list\n', 'Is it ready? '], (_, reply) => /^\s?[A-Z]/.test(reply))).toEqual([]);
});

it('keeps to a few words mid-text, spaced the same way', () => {
  expect(breaking(PREFIXES.slice(0, 400), short, ' and the rest')).toEqual([]);
});
