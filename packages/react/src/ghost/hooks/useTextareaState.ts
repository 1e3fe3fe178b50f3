import { type ChangeEvent, type RefObject, useCallback, useEffect, useState } from 'react';
import { useIsomorphicLayoutEffect } from '../../base/useIsomorphicLayoutEffect.js';

/** The selection of a textarea; `start === end` is a caret. */
export interface TextSelection {
  readonly start: number;
  readonly end: number;
}

/** What `useTextareaState` returns. */
export interface TextareaState {
  /** The text: `value` when controlled, else the textarea's own. */
  readonly text: string;
  readonly selection: TextSelection;
  /** Call from `onChange`: keeps the uncontrolled text and the selection. */
  readonly changed: (event: ChangeEvent<HTMLTextAreaElement>) => void;
  /** Reads the selection from the element: give it to the textarea's `onSelect` (and call it after keys, clicks, focus). */
  readonly readSelection: () => void;
}

/**
 * The text and selection of a textarea, controlled (`value`) or not
 * (`defaultValue`), as React Stately's `useControlledState` does it: the
 * textarea is always rendered with a `value`, so its text and caret are known
 * in every render.
 *
 * @example
 * const { text, selection, changed } = useTextareaState(ref, props.value, props.defaultValue);
 */
export function useTextareaState(
  ref: RefObject<HTMLTextAreaElement | null>,
  value: string | undefined,
  defaultValue: string | undefined,
): TextareaState {
  const controlled = value !== undefined;
  const [own, setOwn] = useState(defaultValue ?? '');
  const text = controlled ? value : own;
  const [selection, setSelection] = useState<TextSelection>(() => ({ start: text.length, end: text.length }));

  const readSelection = useCallback(() => {
    const element = ref.current;
    if (!element) return;
    const { selectionStart: start, selectionEnd: end } = element;
    setSelection((previous) => (previous.start === start && previous.end === end ? previous : { start, end }));
  }, [ref]);

  const changed = useCallback(
    (event: ChangeEvent<HTMLTextAreaElement>) => {
      if (!controlled) setOwn(event.target.value);
      readSelection();
    },
    [controlled, readSelection],
  );

  // A parent that changes `value` moves the caret without any event.
  useIsomorphicLayoutEffect(readSelection, [text, readSelection]);

  // A caret moved by script (`setSelectionRange`) reaches React's `onSelect`
  // only where the browser fires `selectionchange` at the document (React
  // listens there). Chromium fires it at the textarea itself, and `select`
  // there too: those are heard here.
  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    element.addEventListener('selectionchange', readSelection);
    element.addEventListener('select', readSelection);
    return () => {
      element.removeEventListener('selectionchange', readSelection);
      element.removeEventListener('select', readSelection);
    };
  }, [ref, readSelection]);

  return { text, selection, changed, readSelection };
}
