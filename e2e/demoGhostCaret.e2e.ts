import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { screenshot } from './support/artifacts.js';
import { launchChromium } from './support/chromium.js';
import { typeAtEnd, waitForSuggestion } from './support/demoStates.js';

// The demo's ghost text starts at the caret, in a note whose width is not a whole number of
// pixels: the ghost's first letter is where the textarea itself puts that letter once accepted
// (Chromium's own hit testing of the textarea says so, not the overlay's code).

let browser: Browser;

beforeAll(async () => {
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
});

describe('ghost text in the demo', () => {
  it.each([390, 768, 1280])('at %i px, in a fractional-width note: the ghost starts at the caret', async (width) => {
    const context = await browser.newContext({ viewport: { width, height: width < 600 ? 844 : 800 } });
    const page = await context.newPage();
    await page.goto(`${inject('demoUrl')}/?engine=simulated`);
    await page.locator('.inkling-inspector[data-phase="ready"]').first().waitFor();
    // A width with a fraction of a pixel, as a flexible layout gives.
    await page.locator('#note-body').evaluate((textarea) => {
      textarea.style.width = `${textarea.getBoundingClientRect().width - 0.37}px`;
    });
    await typeAtEnd(page, ' Next we');
    const suggestion = await waitForSuggestion(page);
    await screenshot(page, `ghost-at-caret-${width}`);
    const first = suggestion.search(/\S/);
    expect(first).toBeGreaterThanOrEqual(0);
    const { glyph, caret } = await page.evaluate((index) => {
      const ghost = document.querySelector('[data-inkling-ghost]')!.firstChild as Text;
      const range = document.createRange();
      range.setStart(ghost, index);
      range.setEnd(ghost, index + 1);
      const rect = [...range.getClientRects()].find((r) => r.width > 0) ?? range.getBoundingClientRect();
      const textarea = document.querySelector<HTMLTextAreaElement>('#note-body')!;
      return { glyph: { x: rect.left, y: rect.top, width: rect.width, height: rect.height }, caret: textarea.selectionStart };
    }, first);
    // Accepted, the letters are the textarea's own: a click on the first quarter of where the ghost
    // drew its first letter puts the caret just before that letter.
    await page.keyboard.press('Tab');
    await page.keyboard.press('Escape');
    await page.mouse.click(glyph.x + glyph.width * 0.25, glyph.y + glyph.height / 2);
    const landed = await page.locator('#note-body').evaluate((textarea: HTMLTextAreaElement) => textarea.selectionStart);
    expect({ width, landed }).toEqual({ width, landed: caret + first });
    await context.close();
  });
});
