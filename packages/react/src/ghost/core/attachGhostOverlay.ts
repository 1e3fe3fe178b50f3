/**
 * The computed properties of a textarea that decide where its text wraps and
 * where each character sits; the ghost overlay copies them. Its box is not
 * among them: `mirrorTextareaStyle` sets the overlay's size and place from
 * the textarea's exact (fractional) border box.
 */
export const MIRRORED_PROPERTIES = [
  'font-family',
  'font-size',
  'font-style',
  'font-weight',
  'font-variant',
  'font-stretch',
  'font-kerning',
  'font-feature-settings',
  'font-variation-settings',
  'font-optical-sizing',
  'font-size-adjust',
  'font-synthesis',
  'line-height',
  'letter-spacing',
  'word-spacing',
  'text-indent',
  'text-transform',
  'text-align',
  'text-rendering',
  'text-spacing-trim',
  'text-autospace',
  'direction',
  'unicode-bidi',
  'writing-mode',
  'tab-size',
  'word-break',
  'line-break',
  'hyphens',
  'hyphenate-character',
  'white-space',
  'white-space-collapse',
  'text-wrap-mode',
  'overflow-wrap',
  'padding-top',
  'padding-right',
  'padding-bottom',
  'padding-left',
  'border-top-width',
  'border-right-width',
  'border-bottom-width',
  'border-left-width',
  'scrollbar-width',
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

const BORDER_WIDTHS = new Set<string>(['border-top-width', 'border-right-width', 'border-bottom-width', 'border-left-width']);

/**
 * A border width the browser has snapped down to whole device pixels, as a
 * value that snaps to the same: under `zoom` the computed value is rounded to
 * a few digits (2 px at 1.1 reads `1.81818px`) and would snap one device
 * pixel thinner; a hair more snaps down to the same pixel.
 */
function unsnapped(value: string): string {
  const width = px(value);
  return width > 0 ? `${width + 0.001}px` : value;
}

/** The textarea's border box in CSS pixels, unrounded (`offsetWidth` rounds to whole pixels). */
function borderBox(read: (name: string) => string): { width: number; height: number } {
  const width = px(read('width'));
  const height = px(read('height'));
  // A computed width or height is the used size of the box `box-sizing` names.
  if (read('box-sizing') === 'border-box') return { width, height };
  const sum = (...names: string[]) => names.reduce((total, name) => total + px(read(name)), 0);
  return {
    width: width + sum('padding-left', 'padding-right', 'border-left-width', 'border-right-width'),
    height: height + sum('padding-top', 'padding-bottom', 'border-top-width', 'border-bottom-width'),
  };
}

const close = (a: number, b: number) => Math.abs(a - b) < 0.01;

/**
 * The box on screen in the element's own CSS pixels (divided by its CSS
 * `zoom`, `currentCSSZoom` where the browser has it), where that is the
 * computed box (no transform between): computed values keep six digits
 * (`456.812px`), fewer than layout keeps, and a line can end between the two.
 */
function exact(box: { width: number; height: number }, rect: DOMRect, zoom: number): { width: number; height: number } {
  const screen = { width: rect.width / zoom, height: rect.height / zoom };
  return close(box.width, screen.width) && close(box.height, screen.height) ? screen : box;
}

/** Whether the textarea shows a vertical scrollbar (one that takes room, or an overlay one that takes none). */
function showsScrollbar(textarea: HTMLTextAreaElement, computed: CSSStyleDeclaration): boolean {
  const overflow = computed.getPropertyValue('overflow-y');
  if (overflow === 'scroll') return true;
  return overflow === 'auto' && textarea.scrollHeight > textarea.clientHeight;
}

/**
 * Makes `overlay` lie exactly over `textarea` and lay text out as it does:
 * same font, padding, borders (transparent), line height, letter spacing,
 * wrapping, and the textarea's unrounded border box (fractional widths
 * included) and scroll position. Where the textarea shows a vertical
 * scrollbar, the overlay keeps a gutter of the same width on the same side
 * (`scrollbar-gutter: stable`), measured by the browser itself, so zoom,
 * thin or overlay scrollbars and RTL need no arithmetic. Both must share a
 * containing block (a `position: relative` wrapper); the overlay is placed by
 * the difference of the two boxes on screen, so the textarea may sit anywhere
 * in it. A property the browser leaves empty is left as the overlay's own
 * style has it.
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
    if (value) style.setProperty(name, BORDER_WIDTHS.has(name) ? unsnapped(value) : value);
  }
  style.setProperty('box-sizing', 'border-box');
  style.setProperty('border-style', 'solid');
  style.setProperty('border-color', 'transparent');
  // The text colour, for drawing the text itself in the overlay while the
  // textarea's is hidden (a ghost mid-text); not while it is hidden.
  const color = read('color');
  if (color && !/^(transparent|rgba\(.*,\s*0\))$/.test(color)) overlay.parentElement?.style.setProperty('--inkling-text-color', color);
  const zoom = (textarea as HTMLTextAreaElement & { currentCSSZoom?: number }).currentCSSZoom;
  const { width, height } = exact(borderBox(read), textarea.getBoundingClientRect(), typeof zoom === 'number' && zoom > 0 ? zoom : 1);
  style.setProperty('width', `${width}px`);
  style.setProperty('height', `${height}px`);
  makeRoomForScrollbar(textarea, overlay, computed);
  place(textarea, overlay, width);
}

/**
 * Narrows the overlay's text as much as the textarea's vertical scrollbar
 * narrows its own. A gutter (`scrollbar-gutter: stable` on the overlay, which
 * never scrolls) is as wide as the browser's scrollbar at any zoom and on the
 * side it draws it; where the textarea's scrollbar is styled apart
 * (`::-webkit-scrollbar`) or hidden, the two inner widths differ, and the
 * difference goes to the padding on the scrollbar's side instead.
 */
function makeRoomForScrollbar(textarea: HTMLTextAreaElement, overlay: HTMLElement, computed: CSSStyleDeclaration): void {
  const read = (name: string) => computed.getPropertyValue(name);
  const style = overlay.style;
  const shown = showsScrollbar(textarea, computed);
  style.setProperty('scrollbar-gutter', shown ? 'stable' : 'auto');
  // Each rounds its inner width to whole pixels on its own: a pixel apart is the same gutter.
  if (!shown || Math.abs(overlay.clientWidth - textarea.clientWidth) <= 1) return;
  style.setProperty('scrollbar-gutter', 'auto');
  const side = read('direction') === 'rtl' ? 'padding-left' : 'padding-right';
  const room = overlay.clientWidth - textarea.clientWidth;
  if (room > 0) style.setProperty(side, `${px(read(side)) + room}px`);
}

/**
 * Moves the overlay onto the textarea by the distance between their boxes on
 * screen: `offsetTop`/`offsetLeft` round to whole pixels, screen boxes do
 * not. The distance is scaled back to CSS pixels where an ancestor's `zoom`
 * or `transform: scale()` makes screen pixels differ from them.
 */
function place(textarea: HTMLTextAreaElement, overlay: HTMLElement, width: number): void {
  const target = textarea.getBoundingClientRect();
  const current = overlay.getBoundingClientRect();
  const scale = width > 0 && target.width > 0 ? target.width / width : 1;
  const top = px(overlay.style.top) + (target.top - current.top) / scale;
  const left = px(overlay.style.left) + (target.left - current.left) / scale;
  overlay.style.setProperty('top', `${top}px`);
  overlay.style.setProperty('left', `${left}px`);
}

/**
 * Keeps `overlay` mirroring `textarea` (see `mirrorTextareaStyle`): once laid
 * out (the `ResizeObserver`'s first report, or at once without one), when
 * the textarea scrolls, when it, the overlay's container or the window
 * resizes (`ResizeObserver`), when typing shows or hides its scrollbar, and
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
  const scrollbar = () => (view ? showsScrollbar(textarea, view.getComputedStyle(textarea)) : false);
  // Whether the textarea showed a scrollbar at the last sync.
  let shownAtSync = false;
  const sync = () => {
    mirrorTextareaStyle(textarea, overlay);
    shownAtSync = scrollbar();
    syncScroll();
  };
  // Typing that adds or removes the scrollbar changes no box an observer sees.
  const onInput = () => {
    if (scrollbar() !== shownAtSync) sync();
  };
  textarea.addEventListener('scroll', syncScroll, { passive: true });
  textarea.addEventListener('input', onInput);
  view?.addEventListener('resize', sync);
  const observer = view && typeof view.ResizeObserver === 'function' ? new view.ResizeObserver(sync) : undefined;
  // A ResizeObserver reports every element it starts observing once, after
  // layout: that first report does the first sync. Syncing here instead would
  // read computed style and offsets in the middle of the first render (a
  // forced layout in its long task). Without one, sync now.
  if (observer) {
    observer.observe(textarea);
    // The container resizing moves the textarea without resizing it.
    if (overlay.parentElement) observer.observe(overlay.parentElement);
  } else sync();
  const fonts = (textarea.ownerDocument as Document & { fonts?: EventTarget }).fonts;
  fonts?.addEventListener?.('loadingdone', sync);
  return {
    sync,
    syncScroll,
    detach() {
      textarea.removeEventListener('scroll', syncScroll);
      textarea.removeEventListener('input', onInput);
      view?.removeEventListener('resize', sync);
      observer?.disconnect();
      fonts?.removeEventListener?.('loadingdone', sync);
    },
  };
}
