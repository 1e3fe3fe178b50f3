import { afterEach, expect, it, vi } from 'vitest';
import { textareaAcceptors } from '../../../src/ghost/hooks/acceptIntoTextarea.js';
import { acceptSuggestion } from '../../../src/ghost/core/projectGhostText.js';

afterEach(() => {
  document.body.innerHTML = '';
});

function textarea(value: string): HTMLTextAreaElement {
  const element = document.createElement('textarea');
  document.body.append(element);
  element.value = value;
  return element;
}

it('accepts all or one word into the textarea at the caret and tells onAccept', () => {
  const element = textarea('The quick!');
  const take = vi.fn((how: 'all' | 'word') => acceptSuggestion('The quick!', 9, ' brown fox', how));
  const onAccept = vi.fn();
  const { acceptWord } = textareaAcceptors({ ref: { current: element }, take, caret: 9, onAccept }, 'The quick!');
  expect(acceptWord()).toEqual({ text: 'The quick brown!', caret: 15, inserted: ' brown' });
  expect(element.value).toBe('The quick brown!');
  expect(take).toHaveBeenCalledWith('word');
  expect(onAccept).toHaveBeenCalledWith(' brown', 'word');
});

it('with nothing to accept leaves the textarea and onAccept alone', () => {
  const element = textarea('Hi');
  const onAccept = vi.fn();
  const take = vi.fn(() => acceptSuggestion('Hi', 2, '', 'all'));
  const { accept } = textareaAcceptors({ ref: { current: element }, take, caret: 2, onAccept }, 'Hi');
  expect(accept()).toEqual({ text: 'Hi', caret: 2, inserted: '' });
  expect(element.value).toBe('Hi');
  expect(onAccept).not.toHaveBeenCalled();
});

it('without a textarea accepts nothing and never asks the ghost text to accept', () => {
  const take = vi.fn(() => acceptSuggestion('Hello', 5, ' world', 'all'));
  const { accept, acceptWord } = textareaAcceptors({ ref: { current: null }, take, caret: 3 }, 'Hello');
  expect(accept()).toEqual({ text: 'Hello', caret: 3, inserted: '' });
  expect(acceptWord()).toEqual({ text: 'Hello', caret: 3, inserted: '' });
  expect(take).not.toHaveBeenCalled();
});
