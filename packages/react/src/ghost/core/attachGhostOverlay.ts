/**
 * The computed properties of a textarea that decide where its text wraps and
 * where each character sits; the ghost overlay copies them.
 */
export const MIRRORED_PROPERTIES = [
  'box-sizing',
  'font-family',
  'font-size',
  'font-style',
  'font-weight',
  'font-variant',
  'font-stretch',
  'font-kerning',
  'font-feature-settings',
  'font-variation-settings',
  'line-height',
  'letter-spacing',
  'word-spacing',
  'text-indent',
  'text-transform',
  'text-align',
  'text-rendering',
  'direction',
  'tab-size',
  'word-break',
  'hyphens',
  'white-space',
  'overflow-wrap',
  'padding-top',
  'padding-right',
  'padding-bottom',
  'padding-left',
  'border-top-width',
  'border-right-width',
  'border-bottom-width',
  'border-left-width',
] as const;

/** What `attachGhostOverlay` returns. */
export interface GhostOverlayHandle {
  /** Copies the textarea's style, box and scroll position again (after a change the observers cannot see). */
  sync(): void;
  /** Copies only the scroll position. */
  syncScroll(): void;
  /** Removes every listener and observer. */
  detach(): void;
}

function px(value: string): number {
  const n = Number.parseFloat(value);
  return Number.isFinite(n) ? n : 0;
}

/**
 * Makes `overlay` lie exactly over `textarea` and lay text out as it does:
 * same font, padding, borders (transparent), line height, letter spacing,
 * wrapping, box and scroll position, with room for the textarea's scrollbar.
 * Both must share an offset parent (a `position: relative` wrapper). A
 * property the browser leaves empty is left as the overlay's own style has it.
 *
 * @example
 * mirrorTextareaStyle(textarea, overlay);
 * overlay.textContent = textarea.value.slice(0, caret); // ends where the caret is
 */
export function mirrorTextareaStyle(textarea: HTMLTextAreaElement, overlay: HTMLElement): void {
  const view = textarea.ownerDocument.defaultView;
  if (!view) return;
  const computed = view.getComputedStyle(textarea);
  const read = (name: string) => computed.getPropertyValue(name);
  const style = overlay.style;
  for (const name of MIRRORED_PROPERTIES) {
    const value = read(name);
    if (value) style.setProperty(name, value);
  }
  style.setProperty('border-style', 'solid');
  style.setProperty('border-color', 'transparent');
  // A vertical scrollbar narrows the textarea's text; narrow the overlay's as much.
  const scrollbar = textarea.offsetWidth - textarea.clientWidth - px(read('border-left-width')) - px(read('border-right-width'));
  if (scrollbar > 0) style.setProperty('padding-right', `${px(read('padding-right')) + scrollbar}px`);
  // The text colour, for drawing the text itself in the overlay while the
  // textarea's is hidden (a ghost mid-text); not while it is hidden.
  const color = read('color');
  if (color && !/^(transparent|rgba\(.*,\s*0\))$/.test(color)) overlay.parentElement?.style.setProperty('--inkling-text-color', color);
  const box = { top: textarea.offsetTop, left: textarea.offsetLeft, width: textarea.offsetWidth, height: textarea.offsetHeight };
  for (const [name, value] of Object.entries(box)) style.setProperty(name, `${value}px`);
}

/**
 * Keeps `overlay` mirroring `textarea` (see `mirrorTextareaStyle`): once laid
 * out (the `ResizeObserver`'s first report, or at once without one), when
 * the textarea scrolls, when it or the window resizes (`ResizeObserver`), and
 * when web fonts finish loading. Everything is looked up on the textarea's
 * window when attached, never at import.
 *
 * @example
 * const overlay = attachGhostOverlay(textarea, overlayElement);
 * // later
 * overlay.detach();
 */
export function attachGhostOverlay(textarea: HTMLTextAreaElement, overlay: HTMLElement): GhostOverlayHandle {
  const view = textarea.ownerDocument.defaultView;
  const syncScroll = () => {
    overlay.scrollTop = textarea.scrollTop;
    overlay.scrollLeft = textarea.scrollLeft;
  };
  const sync = () => {
    mirrorTextareaStyle(textarea, overlay);
    syncScroll();
  };
  textarea.addEventListener('scroll', syncScroll, { passive: true });
  view?.addEventListener('resize', sync);
  const observer = view && typeof view.ResizeObserver === 'function' ? new view.ResizeObserver(sync) : undefined;
  // A ResizeObserver reports every element it starts observing once, after
  // layout: that first report does the first sync. Syncing here instead would
  // read computed style and offsets in the middle of the first render (a
  // forced layout in its long task). Without one, sync now.
  if (observer) observer.observe(textarea);
  else sync();
  const fonts = (textarea.ownerDocument as Document & { fonts?: EventTarget }).fonts;
  fonts?.addEventListener?.('loadingdone', sync);
  return {
    sync,
    syncScroll,
    detach() {
      textarea.removeEventListener('scroll', syncScroll);
      view?.removeEventListener('resize', sync);
      observer?.disconnect();
      fonts?.removeEventListener?.('loadingdone', sync);
    },
  };
}
