import { type GhostOverlayHandle, attachGhostOverlay } from '@inkling/react/core';
import * as fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { userEvent } from 'vitest/browser';

// Where the ghost lands, checked against Chromium's own hit testing of the textarea: the
// textarea holds the text as if the suggestion were accepted (before + ghost), the overlay
// draws `before` and the ghost in a span as GhostTextarea does. A click on the first half of
// the ghost's first glyph must put the textarea's caret just before that character, and a click
// on its second half just after it: the glyph is in the textarea's own cell for that character,
// so the ghost starts at the caret. Nothing of the overlay's code measures anything here.

interface Box {
  /** The textarea's CSS width, fractional. */
  width: number;
  font: string;
  fontSize: number;
  padding: number;
  border: number;
  boxSizing: 'border-box' | 'content-box';
  direction: 'ltr' | 'rtl';
  /** `zoom` on the wrapper, as a page zoomed by its own stylesheet is. */
  zoom: number;
  /** Room above the textarea inside the wrapper, fractional: the overlay must be placed, not just sized. */
  offset: number;
  rows: number;
  letterSpacing: number;
  className?: string;
}

const BASE: Box = {
  width: 456.81,
  font: 'DejaVu Sans',
  fontSize: 16,
  padding: 8,
  border: 1,
  boxSizing: 'border-box',
  direction: 'ltr',
  zoom: 1,
  offset: 0,
  rows: 6,
  letterSpacing: 0,
};

afterEach(() => {
  document.body.innerHTML = '';
});

/** The overlay's own style, as the kit's GhostTextarea gives it. */
const OVERLAY_CSS =
  'position:absolute;top:0;left:0;margin:0;overflow:hidden;pointer-events:none;color:transparent;background:transparent;box-sizing:border-box;white-space:pre-wrap;overflow-wrap:break-word';

function mount(box: Box, before: string, ghost: string) {
  const wrapper = document.createElement('div');
  wrapper.style.cssText = `position:relative;zoom:${box.zoom};padding-top:${box.offset}px;margin:3.3px 0 0 5.45px`;
  const textarea = document.createElement('textarea');
  textarea.rows = box.rows;
  if (box.className) textarea.className = box.className;
  textarea.style.cssText = [
    `width:${box.width}px`,
    `font-family:'${box.font}'`,
    `font-size:${box.fontSize}px`,
    `padding:${box.padding}px`,
    `border:${box.border}px solid #888`,
    `box-sizing:${box.boxSizing}`,
    `direction:${box.direction}`,
    `letter-spacing:${box.letterSpacing}px`,
    'line-height:1.4',
    'resize:none',
    'display:block',
    'margin:0',
  ].join(';');
  textarea.value = before + ghost;
  const overlay = document.createElement('div');
  overlay.style.cssText = OVERLAY_CSS;
  const span = document.createElement('span');
  span.textContent = ghost;
  overlay.append(document.createTextNode(before), span);
  wrapper.append(textarea, overlay);
  document.body.append(wrapper);
  const handle = attachGhostOverlay(textarea, overlay);
  handle.sync();
  return { textarea, overlay, span, handle };
}

/** The rectangle of the ghost's first glyph, as the overlay draws it. */
function firstGlyph(span: HTMLSpanElement): DOMRect {
  const range = document.createRange();
  const text = span.firstChild as Text;
  range.setStart(text, 0);
  range.setEnd(text, 1);
  const rects = [...range.getClientRects()].filter((rect) => rect.width > 0);
  return rects[0] ?? range.getBoundingClientRect();
}

/**
 * Clicks the textarea at a fraction of the ghost's first glyph along the line (from where the
 * glyph starts: its left in LTR text, its right in RTL) and returns where the caret went.
 */
async function caretAt(
  textarea: HTMLTextAreaElement,
  span: HTMLSpanElement,
  fraction: number,
  rtl: boolean,
  handle: GhostOverlayHandle,
): Promise<number> {
  // Measured where the click lands: the page scrolled to the textarea, and the textarea to
  // the glyph's line (the overlay follows its scroll).
  textarea.scrollIntoView({ block: 'center' });
  textarea.scrollTop = 0;
  handle.syncScroll();
  // On screen, under `zoom`, a CSS pixel is `zoom` pixels; scrollTop counts CSS pixels.
  const zoom = (textarea as HTMLTextAreaElement & { currentCSSZoom?: number }).currentCSSZoom ?? 1;
  const line = (firstGlyph(span).top - textarea.getBoundingClientRect().top) / zoom;
  textarea.scrollTop = Math.max(0, line - textarea.clientHeight / 2);
  handle.syncScroll();
  const glyph = firstGlyph(span);
  const area = textarea.getBoundingClientRect();
  // The glyph is in sight, so the click lands on the textarea's text.
  expect(glyph.top).toBeGreaterThanOrEqual(area.top);
  expect(glyph.bottom).toBeLessThanOrEqual(area.bottom);
  const x = rtl ? glyph.right - glyph.width * fraction : glyph.left + glyph.width * fraction;
  const y = glyph.top + glyph.height / 2;
  // Playwright adds the position to the border box's corner on screen and the whole computed
  // border widths (its own `parseInt`), then clicks at whole pixels.
  const style = getComputedStyle(textarea);
  const border = (name: string) => Number.parseInt(style.getPropertyValue(name), 10) || 0;
  await userEvent.click(textarea, {
    position: { x: x - area.left - border('border-left-width'), y: y - area.top - border('border-top-width') },
    timeout: 5000,
    // No wait for two still animation frames (throttled while another suite's browser has the
    // focus): the point is measured just before, and the click is still Chromium's own hit test.
    force: true,
  });
  return textarea.selectionStart;
}

async function expectGhostAtCaret(box: Box, before: string, ghost: string) {
  const { textarea, span, overlay, handle } = mount(box, before, ghost);
  try {
    // The whole text wraps the same: the same height of content in both (each rounds its own
    // fractional height to whole pixels; a line is 13 px or more).
    expect(Math.abs(overlay.scrollHeight - textarea.scrollHeight), 'content height').toBeLessThanOrEqual(1);
    const rtl = box.direction === 'rtl';
    expect(await caretAt(textarea, span, 0.25, rtl, handle), 'first half of the first glyph').toBe(before.length);
    expect(await caretAt(textarea, span, 0.75, rtl, handle), 'second half of the first glyph').toBe(before.length + 1);
  } finally {
    handle.detach();
    textarea.parentElement?.remove();
  }
}

/** Two frames: layout, then the ResizeObserver's report. */
const nextFrames = () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));

/** The width of `text` on one line in the box's font, fractional. */
function lineWidth(box: Box, text: string): number {
  const span = document.createElement('span');
  span.style.cssText = `font-family:'${box.font}';font-size:${box.fontSize}px;letter-spacing:${box.letterSpacing}px;white-space:pre;position:absolute`;
  span.textContent = text;
  document.body.append(span);
  const width = span.getBoundingClientRect().width;
  span.remove();
  return width;
}

/** A textarea whose first line, `line`, is `slack` CSS pixels narrower than its text area. */
function widthFor(box: Box, line: string, slack: number): number {
  const inner = lineWidth(box, line) + slack;
  return box.boxSizing === 'border-box' ? inner + 2 * (box.padding + box.border) : inner;
}

const LINE = 'I will be late because';
const NEXT = ' of the train';

describe('the ghost overlay in Chromium', () => {
  it('wraps a line that ends within half a pixel of the edge as the textarea does', async () => {
    // Both sides of the edge: the line just fits, or misses by a fraction of a pixel, in a
    // textarea whose width rounds up or down (offsetWidth would make it whole).
    for (const slack of [0.45, 0.2, 0.05, -0.05, -0.2, -0.45]) {
      for (const padding of [8, 8.3, 8.7]) {
        const box = { ...BASE, padding };
        const width = widthFor(box, LINE, slack);
        await expectGhostAtCaret({ ...box, width }, `${LINE}${NEXT.slice(0, 4)}`, NEXT.slice(4));
        // The ghost right after the line's last word, where the bug drew it over "because".
        await expectGhostAtCaret({ ...box, width }, LINE.slice(0, -2), `${LINE.slice(-2)}${NEXT}`);
      }
    }
  });

  it('keeps the ghost at the caret with a scrollbar, content-box sizing, thick borders, zoom and RTL', async () => {
    const long = `${'one more line of the note, '.repeat(30)}and`;
    await expectGhostAtCaret({ ...BASE, rows: 3 }, long.slice(0, 120), ' then');
    await expectGhostAtCaret({ ...BASE, boxSizing: 'content-box', padding: 11.5, border: 3, width: 300.37 }, LINE, NEXT);
    await expectGhostAtCaret({ ...BASE, zoom: 1.25, width: 333.33, offset: 7.7 }, `${LINE} and then`, ' some');
    await expectGhostAtCaret({ ...BASE, zoom: 0.9, width: 290.55, font: 'DejaVu Serif' }, LINE, NEXT);
    await expectGhostAtCaret({ ...BASE, direction: 'rtl', width: 250.4 }, 'שלום לכולם אני אאחר היום כי', ' הרכבת');
    await expectGhostAtCaret({ ...BASE, letterSpacing: 0.37, font: 'Liberation Mono', width: 301.6 }, LINE, NEXT);
    await expectGhostAtCaret(
      { ...BASE, direction: 'rtl', rows: 2, width: 200.3 },
      `${'שלום לכולם אני אאחר היום כי '.repeat(4)}בגלל`,
      ' הרכבת',
    );
    // A scrollbar styled apart, which the overlay's gutter cannot copy.
    const sheet = document.createElement('style');
    sheet.textContent = 'textarea.thin::-webkit-scrollbar { width: 6.5px }';
    document.head.append(sheet);
    try {
      await expectGhostAtCaret({ ...BASE, rows: 2, className: 'thin' }, long.slice(0, 140), ' then');
      await expectGhostAtCaret(
        { ...BASE, rows: 2, className: 'thin', direction: 'rtl' },
        `${'שלום לכולם אני אאחר היום כי '.repeat(5)}בגלל`,
        ' הרכבת',
      );
    } finally {
      sheet.remove();
    }
  });

  it('follows the textarea when it is resized or typing brings its scrollbar', async () => {
    const before = `${LINE} of the train and`;
    const { textarea, overlay, span, handle } = mount({ ...BASE, rows: 2 }, before, ' then');
    try {
      textarea.style.width = `${widthFor(BASE, LINE, 0.2)}px`;
      await nextFrames();
      expect(overlay.getBoundingClientRect().width).toBeCloseTo(textarea.getBoundingClientRect().width, 3);
      // Typing that overflows two rows shows the scrollbar; the overlay keeps the same gutter.
      const more = `${before}${' and more'.repeat(12)}`;
      textarea.value = `${more} then`;
      overlay.firstChild!.textContent = more;
      textarea.dispatchEvent(new InputEvent('input', { bubbles: true }));
      expect(textarea.clientWidth).toBeLessThan(textarea.getBoundingClientRect().width - 10);
      expect(overlay.clientWidth).toBe(textarea.clientWidth);
      expect(overlay.scrollHeight).toBe(textarea.scrollHeight);
      textarea.scrollTop = textarea.scrollHeight;
      handle.syncScroll();
      expect(overlay.scrollTop).toBe(textarea.scrollTop);
      expect(await caretAt(textarea, span, 0.25, false, handle)).toBe(more.length);
    } finally {
      handle.detach();
    }
  });

  it('puts the ghost at the caret for any text, width, font, padding and box sizing (property)', async () => {
    const vocabulary = fc.constantFrom(
      'the',
      'train',
      'because',
      'I',
      'will',
      'be',
      'late',
      'Maria',
      'minutes',
      'of',
      'wrap',
      'xylophone',
      'a',
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(vocabulary, { minLength: 12, maxLength: 40 }),
        fc.integer({ min: 1, max: 8 }),
        fc.double({ min: -0.5, max: 0.5, noNaN: true }),
        fc.record({
          font: fc.constantFrom('DejaVu Sans', 'DejaVu Serif', 'Liberation Sans', 'Liberation Mono'),
          fontSize: fc.constantFrom(13, 14.5, 16, 17.3, 19),
          padding: fc.double({ min: 0, max: 14, noNaN: true }),
          border: fc.constantFrom(0, 1, 2),
          boxSizing: fc.constantFrom('border-box' as const, 'content-box' as const),
          zoom: fc.constantFrom(1, 1, 1.1, 0.8),
          letterSpacing: fc.constantFrom(0, 0, 0.3),
        }),
        fc.nat(),
        async (list, firstLine, slack, style, cut) => {
          const box: Box = { ...BASE, ...style, rows: 4 };
          const text = list.join(' ');
          // The first line's end within half a pixel of the edge, one side or the other.
          // A line as wide as a narrow textarea's at least (a phone's is about 300 px).
          let words = firstLine;
          while (words < list.length - 1 && lineWidth(box, list.slice(0, words).join(' ')) < 120) words += 1;
          const line = list.slice(0, words).join(' ');
          fc.pre(lineWidth(box, line) >= 120);
          const width = widthFor(box, line, slack);
          // The ghost starts with a letter, anywhere after the first word.
          const starts = [...text.matchAll(/\S/g)].map((match) => match.index).filter((index) => index > 0);
          const at = starts[cut % starts.length] ?? 1;
          await expectGhostAtCaret({ ...box, width }, text.slice(0, at), text.slice(at));
        },
      ),
      { numRuns: 60 },
    );
  });
});
