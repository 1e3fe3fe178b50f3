// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { defaultGhostParams, stripRepetition } from '../../../src/ghost/core/ghostPrompt.js';
import { nextWord } from '../../../src/ghost/core/nextWord.js';
import { projectGhostText } from '../../../src/ghost/core/projectGhostText.js';

const at = (before: string, after = '') => ({ before, after });

describe('stripRepetition', () => {
  it('leaves a plain continuation alone', () => {
    expect(stripRepetition(' fox jumps', at('The quick brown'), true)).toBe(' fox jumps');
  });

  it('drops an echo of the whole text before the caret', () => {
    expect(stripRepetition('Dear Sam, thanks for', at('Dear Sam,'), true)).toBe(' thanks for');
  });

  it('drops repeated last words and the repeated half of a word', () => {
    expect(stripRepetition('brown fox', at('The quick brown'), true)).toBe(' fox');
    expect(stripRepetition('world peace', at('Hello wor'), true)).toBe('ld peace');
  });

  it('does not take a coincidence inside a word for a repeat', () => {
    expect(stripRepetition('own house', at('The quick brown'), true)).toBe('own house');
  });

  it('holds back, while streaming, a start that may still be an echo', () => {
    expect(stripRepetition('The quick', at('The quick brown'), false)).toBe('');
    expect(stripRepetition('brown', at('The quick brown'), false)).toBe('');
    expect(stripRepetition('brown', at('The quick brown'), true)).toBe('');
  });

  it('drops a repeat in scripts without spaces', () => {
    expect(stripRepetition('良い天気', at('今日は良い'), true)).toBe('天気');
  });

  it('cuts where the reply runs into the text after the caret', () => {
    expect(stripRepetition(' big red dog ran home', at('A', ' dog ran home.'), true)).toBe(' big red');
    expect(stripRepetition(' big red dog ra', at('A', ' dog ran home.'), false)).toBe(' big red');
  });

  it('never doubles a space', () => {
    expect(stripRepetition(' next', at('word '), true)).toBe('next');
  });
});

describe('defaultGhostParams', () => {
  it('asks for a short, deterministic continuation and sends both sides of the caret', () => {
    const params = defaultGhostParams({ before: 'Hello', after: ' world', maxTokens: 16 });
    expect(params).toMatchObject({ max_tokens: 16, temperature: 0 });
    expect(params.messages[0]?.role).toBe('system');
    // The text after the caret first, the text before it (which a keystroke changes) last.
    expect(params.messages[1]?.content).toBe('<after_cursor> world</after_cursor>\n<before_cursor>Hello</before_cursor>');
  });

  it('sends only a window of a long document', () => {
    const params = defaultGhostParams({ before: 'x'.repeat(10_000), after: '', maxTokens: 16 });
    expect(String(params.messages[1]?.content).length).toBeLessThan(1600);
  });
});

describe('nextWord', () => {
  it('takes leading spaces and punctuation with the first word', () => {
    expect(nextWord(' quick brown')).toBe(' quick');
    expect(nextWord(', brown fox')).toBe(', brown');
    expect(nextWord('end.')).toBe('end');
    expect(nextWord('.')).toBe('.');
    expect(nextWord('')).toBe('');
  });

  it('finds words in Japanese and Chinese', () => {
    expect(nextWord('良い天気ですね', 'ja')).toBe('良い');
    expect(nextWord('我们去公园', 'zh')).toBe('我们');
  });
});

describe('projectGhostText', () => {
  const ready = { suggestion: ' quick fox', status: 'done' as const, error: null, context: at('The'), fromCache: false };

  it('keeps the rest of a suggestion the new text typed through', () => {
    expect(projectGhostText(ready, at('The qu'))).toMatchObject({ suggestion: 'ick fox', status: 'done' });
  });

  it('shows nothing for text the suggestion does not fit, or that typed it all', () => {
    expect(projectGhostText(ready, at('The x'))).toMatchObject({ suggestion: '', status: 'queued' });
    expect(projectGhostText(ready, at('The quick fox'))).toMatchObject({ suggestion: '' });
    expect(projectGhostText(ready, at('The', ' end'))).toMatchObject({ suggestion: '' });
  });

  it('returns the state itself for the text it was made for', () => {
    expect(projectGhostText(ready, at('The'))).toBe(ready);
  });
});
