// @vitest-environment node
import * as fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { defaultGhostParams } from '../../../src/ghost/core/ghostPrompt.js';
import { contextOf } from '../../../src/ghost/core/projectGhostText.js';
import { promptWindow } from '../../../src/ghost/core/promptWindow.js';

const FAMILY = '👨‍👩‍👧‍👦'; // one grapheme, 11 code units
const EMOJI = ['😀', '🎉', '👍🏽', FAMILY, '🇫🇷', 'é', '漢', ' ', 'word '];

/** A note of `n` pieces, emoji-heavy, from a seed. */
function emojiNote(n: number, seed: number): string {
  let x = seed;
  const out: string[] = [];
  for (let i = 0; i < n; i += 1) {
    x = (x * 1_103_515_245 + 12_345) % 2 ** 31;
    out.push(EMOJI[x % EMOJI.length] as string);
  }
  return out.join('');
}

/** `String.prototype.isWellFormed` (ES2024): no lone surrogate; in `u` mode a pair is one code point, a lone half is `Cs`. */
const isWellFormed = (text: string) => !/\p{Cs}/u.test(text);

const userOf = (before: string, after: string) => String(defaultGhostParams({ before, after, maxTokens: 24 }).messages[1]?.content);

describe('promptWindow', () => {
  it('never sends half a surrogate pair, wherever the caret is in a large emoji note', () => {
    const note = emojiNote(200_000, 7); // about 600,000 code units
    expect(note.length).toBeGreaterThan(500_000);
    expect(isWellFormed(`a${'😀'.slice(0, 1)}`)).toBe(false); // the check itself sees a lone half
    fc.assert(
      fc.property(fc.integer({ min: 0, max: note.length }), (caret) => {
        const { before, after } = contextOf(note, caret);
        expect(before + after).toBe(note);
        const params = defaultGhostParams({ before, after, maxTokens: 24 });
        for (const message of params.messages) expect(isWellFormed(String(message.content))).toBe(true);
      }),
      { numRuns: 300, seed: 42 },
    );
    // ~3 s on an idle 2-core machine; it hit the default 5 s once at load ~10. A budget, not an assertion on speed.
  }, 30_000);

  it('cuts whole grapheme clusters: a note of family emoji keeps whole families on both sides', () => {
    const note = `${FAMILY.repeat(300)}`;
    for (const families of [150, 200, 299]) {
      const { head, tail } = promptWindow({ before: note.slice(0, families * FAMILY.length), after: note.slice(families * FAMILY.length) });
      expect(head.length % FAMILY.length).toBe(0);
      expect(head.length).toBeGreaterThan(0);
      expect(tail.length % FAMILY.length).toBe(0);
      expect(FAMILY.repeat(head.length / FAMILY.length)).toBe(head);
    }
  });

  it('starts the window at a word, and keeps it there while a person types a block', () => {
    const words = Array.from({ length: 2000 }, (_, i) => `word${i % 97}`).join(' ');
    const starts = new Set<number>();
    for (let end = 4000; end < 4200; end += 1) {
      const before = words.slice(0, end);
      const { head } = promptWindow({ before, after: '' });
      starts.add(before.length - head.length);
      expect(head).toMatch(/^word/);
      expect(head.length).toBeGreaterThan(1500 - 64);
      expect(head.length).toBeLessThanOrEqual(1500 + 256);
    }
    // 200 keystrokes cross at most one block boundary.
    expect(starts.size).toBeLessThanOrEqual(2);
  });

  it('takes a caret between the halves of a surrogate pair as before the pair', () => {
    expect(contextOf('a😀b', 2)).toEqual({ before: 'a', after: '😀b' });
    expect(contextOf('a😀b', 3)).toEqual({ before: 'a😀', after: 'b' });
  });

  it('sends the whole text when it is short', () => {
    expect(userOf('Dear Sam,', ' Best, Ann')).toBe('<after_cursor> Best, Ann</after_cursor>\n<before_cursor>Dear Sam,</before_cursor>');
  });
});
