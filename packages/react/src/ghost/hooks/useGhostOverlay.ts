import { type RefObject, useRef } from 'react';
import { type GhostOverlayHandle, attachGhostOverlay } from '../core/attachGhostOverlay.js';
import { useIsomorphicLayoutEffect } from '../../base/useIsomorphicLayoutEffect.js';

/**
 * Keeps an overlay element on the textarea's box, scroll and text style
 * (`attachGhostOverlay`) while both are mounted, and re-reads the style when
 * a suggestion appears (a class or theme may have changed since; an empty
 * overlay could not scroll). Returns the ref to give the overlay.
 *
 * @example
 * const overlayRef = useGhostOverlay(textareaRef, suggestion !== '');
 * <div ref={overlayRef} aria-hidden>{before}<span>{suggestion}</span>{after}</div>
 */
export function useGhostOverlay(ref: RefObject<HTMLTextAreaElement | null>, visible: boolean): RefObject<HTMLDivElement | null> {
  const overlayRef = useRef<HTMLDivElement>(null);
  const overlay = useRef<GhostOverlayHandle | undefined>(undefined);
  useIsomorphicLayoutEffect(() => {
    const textarea = ref.current;
    const element = overlayRef.current;
    if (!textarea || !element) return;
    const handle = attachGhostOverlay(textarea, element);
    overlay.current = handle;
    return () => {
      handle.detach();
      overlay.current = undefined;
    };
  }, [ref]);
  useIsomorphicLayoutEffect(() => {
    if (visible) overlay.current?.sync();
  }, [visible]);
  return overlayRef;
}
