import { afterEach, expect, it, vi } from 'vitest';
import { insertText } from '../../../src/ghost/core/insertText.js';

afterEach(() => {
  Reflect.deleteProperty(document, 'execCommand');
  document.body.innerHTML = '';
});

function field(value: string, caret: number): HTMLTextAreaElement {
  const textarea = document.createElement('textarea');
  document.body.append(textarea);
  textarea.value = value;
  textarea.setSelectionRange(caret, caret);
  return textarea;
}

it('inserts through execCommand("insertText") where the browser has it, so it is one undo step', () => {
  const textarea = field('Hello world', 5);
  const execCommand = vi.fn((command: string, _ui: boolean, text: string) => {
    textarea.value = textarea.value.slice(0, 5) + text + textarea.value.slice(5);
    return command === 'insertText';
  });
  Object.assign(document, { execCommand });
  expect(insertText(textarea, ' big')).toBe('execCommand');
  expect(execCommand).toHaveBeenCalledWith('insertText', false, ' big');
  expect(textarea.value).toBe('Hello big world');
});

it('elsewhere splices the text in at the caret, moves the caret past it and fires input', () => {
  const textarea = field('Hello world', 5);
  const inputs: string[] = [];
  textarea.addEventListener('input', (event) => inputs.push((event as InputEvent).data ?? ''));
  expect(insertText(textarea, ' big')).toBe('setRangeText');
  expect(textarea.value).toBe('Hello big world');
  expect([textarea.selectionStart, textarea.selectionEnd]).toEqual([9, 9]);
  expect(inputs).toEqual([' big']);
  expect(document.activeElement).toBe(textarea);
});

it('falls back when execCommand says yes but changes nothing', () => {
  const textarea = field('ab', 1);
  Object.assign(document, { execCommand: () => true });
  expect(insertText(textarea, 'X')).toBe('setRangeText');
  expect(textarea.value).toBe('aXb');
});
