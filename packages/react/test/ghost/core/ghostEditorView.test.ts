import { expect, it } from 'vitest';
import { ghostEditorView } from '../../../src/ghost/core/ghostEditorView.js';
import type { GhostTextState } from '../../../src/ghost/core/projectGhostText.js';

const showing = (suggestion: string): GhostTextState => ({
  suggestion,
  status: suggestion ? 'done' : 'idle',
  error: null,
  context: null,
  fromCache: false,
});

it('splits the text at the caret around the suggestion and says whether text follows it', () => {
  expect(ghostEditorView(showing(' brave'), 'Hello world', 5)).toEqual({
    before: 'Hello',
    suggestion: ' brave',
    after: ' world',
    visible: true,
    midText: true,
  });
  expect(ghostEditorView(showing(' world'), 'Hello', 5)).toEqual({
    before: 'Hello',
    suggestion: ' world',
    after: '',
    visible: true,
    midText: false,
  });
});

it('is neither visible nor mid-text without a suggestion, wherever the caret is', () => {
  expect(ghostEditorView(showing(''), 'Hello world', 2)).toEqual({
    before: 'He',
    suggestion: '',
    after: 'llo world',
    visible: false,
    midText: false,
  });
});

it('never splits an emoji and clamps the caret into the text (default: the end)', () => {
  expect(ghostEditorView(showing('!'), 'a😀b', 2)).toMatchObject({ before: 'a', after: '😀b' });
  expect(ghostEditorView(showing('!'), 'abc', 99)).toMatchObject({ before: 'abc', after: '', midText: false });
  expect(ghostEditorView(showing('!'), 'abc', undefined)).toMatchObject({ before: 'abc', after: '' });
});
