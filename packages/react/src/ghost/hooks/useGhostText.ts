import { useCallback, useMemo } from 'react';
import { useInklingContext } from '../../base/poolContext.js';
import { type GhostTextOptions, GhostTextController } from '../core/ghostTextController.js';
import type { GhostAcceptance, GhostTextState } from '../core/projectGhostText.js';
import { useController } from '../../base/useController.js';

/** Options of `useGhostText`. */
export interface UseGhostTextOptions extends GhostTextOptions {
  /** Throw a request's error to the nearest error boundary instead of returning it. Default `false`. */
  throwOnError?: boolean;
}

/** What `useGhostText` returns. */
export interface UseGhostTextResult extends GhostTextState {
  /**
   * The text with the whole suggestion inserted at the caret: set `text` as
   * the editor's text and the caret at `caret`.
   */
  accept(): GhostAcceptance;
  /**
   * The text with the suggestion's next word inserted at the caret (CJK
   * words too). Set `text` and `caret`, and the rest stays.
   */
  acceptWord(): GhostAcceptance;
  /** Hides the suggestion and cancels its request until the text or caret changes. */
  dismiss(): void;
  /** Call with `true` on `compositionstart` and `false` on `compositionend`: nothing is requested mid-composition. */
  setComposing(composing: boolean): void;
}

/**
 * Copilot-style ghost text for an editor: pass the text and caret on every
 * render; get the `suggestion` to draw at the caret. Requests are
 * interactive and supersede each other by `session`; they are debounced but
 * the one in flight is cancelled at the first keystroke; typing the
 * suggestion's next characters keeps the rest without a new request; a
 * suggestion that no longer fits is never shown, not even for one render.
 *
 * @example
 * const [text, setText] = useState('');
 * const [caret, setCaret] = useState(0);
 * const ghost = useGhostText({ session: 'notes-editor', text, caret });
 * const onKeyDown = (e: KeyboardEvent) => {
 *   if (e.key === 'Tab' && ghost.suggestion) {
 *     e.preventDefault();
 *     const next = ghost.accept();
 *     setText(next.text);
 *     setCaret(next.caret);
 *   } else if (e.key === 'Escape') ghost.dismiss();
 * };
 */
export function useGhostText(options: UseGhostTextOptions): UseGhostTextResult {
  const { modelId } = useInklingContext('useGhostText');
  const bound = options.model === undefined ? { ...options, model: modelId } : options;
  const [ghost, state] = useController(
    'useGhostText',
    bound,
    ({ pool, scheduleFrame }, initial) => new GhostTextController(pool, initial, { scheduleFrame }),
  );
  const { text, caret, enabled } = options;
  const view = useMemo(() => ghost.view(state, { text, caret, enabled }), [ghost, state, text, caret, enabled]);
  const { suggestion } = view;
  const accept = useCallback(() => ghost.acceptFrom({ text, caret, suggestion }, 'all'), [ghost, text, caret, suggestion]);
  const acceptWord = useCallback(() => ghost.acceptFrom({ text, caret, suggestion }, 'word'), [ghost, text, caret, suggestion]);
  if (options.throwOnError && view.error) throw view.error;
  return useMemo(
    () => ({ ...view, accept, acceptWord, dismiss: ghost.dismiss, setComposing: ghost.setComposing }),
    [view, accept, acceptWord, ghost],
  );
}
