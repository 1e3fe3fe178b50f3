/**
 * Inserts `text` over the textarea's selection as if the person typed it:
 * through `document.execCommand('insertText')` where the browser supports it,
 * which keeps the insertion one step on the browser's undo stack and fires
 * `input` (so a controlled React `onChange` sees it); elsewhere it splices
 * the text in (as `setRangeText` would) and fires an `input` event itself.
 * The caret ends after `text`.
 * Returns which way it went.
 *
 * @example
 * textarea.setSelectionRange(caret, caret);
 * insertText(textarea, ' jumps over the lazy dog');
 */
export function insertText(textarea: HTMLTextAreaElement, text: string): 'execCommand' | 'setRangeText' {
  const doc = textarea.ownerDocument;
  if (doc.activeElement !== textarea) textarea.focus({ preventScroll: true });
  const before = textarea.value;
  let done = false;
  try {
    // Deprecated in name only: it is still the one way to join the undo stack.
    done = typeof doc.execCommand === 'function' && doc.execCommand('insertText', false, text);
  } catch {
    done = false;
  }
  // Some engines say yes and do nothing (a textarea they do not treat as editable).
  if (done && textarea.value !== before) return 'execCommand';
  const start = textarea.selectionStart;
  const end = textarea.selectionEnd;
  const next = before.slice(0, start) + text + before.slice(end);
  // Not `setRangeText`: some DOMs (happy-dom) implement it through the
  // element's own `value` setter, which React's value tracker wraps, and React
  // then never reports the change. The prototype's setter is what typing uses.
  const setter = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(textarea), 'value')?.set;
  if (setter) setter.call(textarea, next);
  else textarea.setRangeText(text, start, end, 'end');
  textarea.setSelectionRange(start + text.length, start + text.length);
  const view = doc.defaultView ?? globalThis;
  const event =
    typeof view.InputEvent === 'function'
      ? new view.InputEvent('input', { bubbles: true, inputType: 'insertText', data: text })
      : new view.Event('input', { bubbles: true });
  textarea.dispatchEvent(event);
  return 'setRangeText';
}
