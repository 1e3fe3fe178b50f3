// @vitest-environment node
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { GhostTextController } from '../../../src/ghost/core/ghostTextController.js';
import { acceptSuggestion } from '../../../src/ghost/core/projectGhostText.js';
import { stripUnsafeText } from '../../../src/ghost/core/stripUnsafeText.js';
import { fakePool } from '../../core/helpers.js';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

// oxlint-disable-next-line no-control-regex -- the characters the text must not hold
const UNSAFE = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]/u;
/** Each kind of character the rule removes, its edges, and the ones next to them it keeps. */
const CHARACTERS = [
  ...'\u0000\u0007\u0008\t\n\u000B\r\u001B\u001F \u007E\u007F\u0085\u009F\u00A0\u2029\u202A\u202E\u202F\u2065\u2066\u2069\u206A\ud83d\ude00a',
];
const HOSTILE = ' admin\u202E\u2066 txt.exe\u2069\u0000\u001B[31m red\u0007\r\n\tend\u0085';

it('never shows, caches or inserts bidi overrides, isolates or control characters from a reply', async () => {
  const { pool } = fakePool({ reply: () => HOSTILE, tokenMs: 5 }, { size: 1 });
  await pool.load();
  const ghost = new GhostTextController(pool, { session: 's', text: '', speculate: false });
  const shown: string[] = [];
  ghost.subscribe(() => shown.push(ghost.getSnapshot().suggestion));
  ghost.setOptions({ session: 's', text: 'Log in as', speculate: false });
  await vi.runAllTimersAsync();
  expect(ghost.getSnapshot()).toMatchObject({ status: 'done', suggestion: ' admin txt.exe[31m red\n\tend' });
  for (const suggestion of shown) expect(suggestion).not.toMatch(UNSAFE);
  const accepted = ghost.accept();
  expect(accepted.text).toBe('Log in as admin txt.exe[31m red\n\tend');
  // Back to the answered text: the cached reply is clean too.
  ghost.setOptions({ session: 's', text: 'Log in as!', speculate: false });
  ghost.setOptions({ session: 's', text: 'Log in as', speculate: false });
  expect(ghost.getSnapshot()).toMatchObject({ fromCache: true, suggestion: ' admin txt.exe[31m red\n\tend' });
  ghost.dispose();
});

it('acceptSuggestion inserts none of them, whatever suggestion it is handed', () => {
  expect(acceptSuggestion('a', 1, '\u202Eb\u0000c', 'all')).toEqual({ text: 'abc', caret: 3, inserted: 'bc' });
});

it('stripUnsafeText removes those characters and nothing else, and streamed prefixes stay prefixes (every string of 3 of them)', () => {
  const units = CHARACTERS.flatMap((ch) => ch.split(''));
  for (const a of units) {
    for (const b of units) {
      for (const c of units) {
        const text = a + b + c;
        const clean = stripUnsafeText(text);
        expect(clean).toBe([a, b, c].filter((unit) => !UNSAFE.test(unit)).join(''));
        expect(clean.startsWith(stripUnsafeText(a + b))).toBe(true);
      }
    }
  }
});
