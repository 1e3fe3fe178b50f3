import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { screenshot } from './support/artifacts.js';
import { launchChromium } from './support/chromium.js';
import { STATES } from './support/demoStates.js';
import { WIDTHS, axeViolations, overlaps, sideways } from './support/pageChecks.js';

/** The editor, the translation table, the inspectors and the notices: none may cover another. */
const REGIONS = ['.note-field', '.translate-list', '.app-inspector .inkling-inspector', '.notice', '.built-in-offer'];

let browser: Browser;

beforeAll(async () => {
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
});

async function check(page: Page, label: string) {
  await screenshot(page, label);
  const { scrollWidth, viewport, overflowing } = await sideways(page);
  // Each check carries the state's name, so a failure says where.
  expect({ label, sideways: Math.max(0, scrollWidth - viewport), overflowing }).toEqual({ label, sideways: 0, overflowing: [] });
  expect({ label, overlapping: await overlaps(page, REGIONS) }).toEqual({ label, overlapping: [] });
  expect({ label, axe: await axeViolations(page) }).toEqual({ label, axe: [] });
}

describe.each(WIDTHS)('the demo at $width px', (viewport) => {
  it('every main state fits the width, overlaps nothing and passes axe', async () => {
    const context = await browser.newContext({ viewport });
    const page = await context.newPage();
    const checked: string[] = [];
    for (const state of STATES) {
      if (state.query || state.name === STATES[0]?.name) {
        await context.clearCookies();
        await page.goto(`${inject('demoUrl')}/${state.query}`);
        await page.evaluate(() => localStorage.clear());
        await page.goto(`${inject('demoUrl')}/${state.query}`);
      }
      await state.reach(page);
      await check(page, `demo-${viewport.width}-${state.name}`);
      checked.push(state.name);
    }
    expect(checked).toEqual(STATES.map((state) => state.name));
    await context.close();
  }, 120_000);
});

describe('the inspector', () => {
  it('is not clipped at 1280×800 while a translation runs, and the keyboard can scroll it', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    await page.goto(`${inject('demoUrl')}/?engine=simulated`);
    await page.locator('.inkling-inspector[data-phase="ready"]').waitFor();
    await page.getByRole('button', { name: 'Translate this page' }).click();
    await page.locator('.translate-list tbody tr[data-status="done"]').first().waitFor({ timeout: 20_000 });
    const panel = page.getByRole('region', { name: 'Engine pool (this device)' });
    // Everything fits: nothing hidden to the right of the panel.
    const fits = await panel.evaluate((element) => element.scrollWidth <= element.clientWidth);
    expect(fits).toBe(true);
    const rights = await page
      .locator('.app-inspector .inkling-jobs th')
      .evaluateAll((cells) => cells.map((cell) => cell.getBoundingClientRect().right));
    expect(rights).toHaveLength(9);
    // The task column keeps room for a name, however many columns there are.
    const task = await page.locator('.app-inspector .inkling-jobs th', { hasText: 'Task' }).boundingBox();
    expect(task?.width).toBeGreaterThan(50);
    expect(Math.max(...rights)).toBeLessThanOrEqual(1280);
    // No heading, number or legend entry is cut short; only task names may end in "…" (their cell has a title).
    const cut = await page.evaluate(() =>
      [...document.querySelectorAll('.app-inspector th, .app-inspector td, .app-inspector .inkling-lane-legend li')]
        .filter((cell) => !cell.matches('.inkling-task, .inkling-engine-jobs') && cell.scrollWidth > cell.clientWidth + 1)
        .map((cell) => cell.textContent),
    );
    expect(cut).toEqual([]);
    // A named region that takes the focus: arrow keys scroll it when it is wider than it shows.
    expect(await panel.getAttribute('tabindex')).toBe('0');
    await page.setViewportSize({ width: 390, height: 844 });
    await panel.focus();
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Engine pool (this device)');
    const before = await panel.evaluate((element) => element.scrollLeft);
    // On a phone the job table is wider than the panel: the keys move it.
    expect(await panel.evaluate((element) => element.scrollWidth > element.clientWidth)).toBe(true);
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => panel.evaluate((element) => element.scrollLeft)).toBeGreaterThan(before);
    await context.close();
  });
});
