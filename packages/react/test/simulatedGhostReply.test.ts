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

it('checks enough prefixes to matter', () => {
  expect(PREFIXES.length).toBeGreaterThan(1000);
});

it('is never glued to the word just typed: a space, or the rest of a half-typed word the engine knows', () => {
  for (const before of PREFIXES) {
    const reply = simulatedGhostReply(before, '');
    if (/\s$/.test(before)) {
      expect(reply, before).toMatch(/^\S/);
      continue;
    }
    const [, completion = '', space = '', phrase = ''] = /^(\p{L}*)(\s*)(.*)$/su.exec(reply) ?? [];
    expect(phrase.length, before).toBeGreaterThan(0);
    expect(space, before).toBe(' ');
    if (completion) expect(VOCABULARY, before).toContain(lastWordOf(before) + completion);
  }
});

it('never completes a word that is whole already ("want to" is not "want today")', () => {
  for (const before of PREFIXES.filter((text) => /\p{L}$/u.test(text) && WHOLE_WORDS.has(lastWordOf(text)))) {
    expect(simulatedGhostReply(before, ''), before).toMatch(/^\s/);
  }
  expect(simulatedGhostReply('I want to', '')).not.toMatch(/^day/);
  expect(simulatedGhostReply('I', '')).toMatch(/^ [a-z]/);
});

it('never starts by repeating the last word', () => {
  for (const before of PREFIXES) {
    const reply = simulatedGhostReply(before, '');
    // The word just typed, finished by the reply if it was half-typed; then the reply's next word.
    const glued = /\p{L}$/u.test(before) ? (/^\p{L}*/u.exec(reply)?.[0] ?? '') : '';
    const word = lastWordOf(before + glued);
    const next = (/\p{L}+/u.exec(reply.slice(glued.length))?.[0] ?? '').toLowerCase();
    expect(next, `${before} → ${reply}`).not.toBe(word);
  }
});

it('starts in lower case mid-sentence, with a capital after a full stop or a new line', () => {
  for (const before of PREFIXES.filter((text) => !/[.!?]\s*$/.test(text))) {
    const reply = simulatedGhostReply(before, '');
    const glued = /\p{L}$/u.test(before) ? (/^\p{L}*/u.exec(reply)?.[0] ?? '') : '';
    const first = /\p{L}+/u.exec(reply.slice(glued.length))?.[0] ?? '';
    if (!PROPER.has(first)) expect(first.charAt(0), `${before} → ${reply}`).toBe(first.charAt(0).toLowerCase());
  }
  for (const before of ['Done.', 'Done. ', 'Shopping list\n', 'Is it ready? ']) {
    expect(simulatedGhostReply(before, ''), before).toMatch(/^\s?[A-Z]/);
  }
});

it('keeps to a few words mid-text, spaced the same way', () => {
  for (const before of PREFIXES.slice(0, 400)) {
    const reply = simulatedGhostReply(before, ' and the rest');
    expect(reply.trim().split(/\s+/).length, before).toBeLessThanOrEqual(4);
    expect(reply, before).not.toMatch(/\s{2}/);
  }
});
