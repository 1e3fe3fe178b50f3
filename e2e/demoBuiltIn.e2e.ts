import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { screenshot } from './support/artifacts.js';
import { launchChromium } from './support/chromium.js';
import { axeViolations, layoutShift, recordConsoleErrors, sideways, watchLayoutShift } from './support/pageChecks.js';

// The demo's "Chrome's built-in model" line as this Chromium really answers: the Prompt API
// 'unavailable', en→fr translation 'downloadable' (offline, no model on disk). Every create()
// of the three APIs is counted in the page: nothing may be created until a person clicks.

let browser: Browser;

beforeAll(async () => {
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
});

type Counts = Record<'LanguageModel' | 'Translator' | 'LanguageDetector', number>;

/** Counts each API's create() calls in every page of `context` (the real create() still runs). */
async function countCreates(context: BrowserContext): Promise<void> {
  await context.addInitScript(() => {
    const counts = { LanguageModel: 0, Translator: 0, LanguageDetector: 0 };
    (window as unknown as { inklingCreates: typeof counts }).inklingCreates = counts;
    for (const name of Object.keys(counts) as Array<keyof typeof counts>) {
      const api = (window as unknown as Record<string, { create?: (...args: unknown[]) => unknown } | undefined>)[name];
      const create = api?.create;
      if (!api || !create) continue;
      api.create = function (...args: unknown[]) {
        counts[name] += 1;
        return create.apply(this, args);
      };
    }
  });
}

const creates = (page: Page) => page.evaluate(() => (window as unknown as { inklingCreates: Counts }).inklingCreates);

/** What this Chromium's own availability() answers, asked in the page. */
const realAnswers = (page: Page) =>
  page.evaluate(async () => {
    const w = window as unknown as Record<string, { availability(options?: object): Promise<string> }>;
    return {
      prompt: await w.LanguageModel!.availability(),
      translation: await w.Translator!.availability({ sourceLanguage: 'en', targetLanguage: 'fr' }),
    };
  });

async function open(width: number, init?: () => void) {
  const context = await browser.newContext({ viewport: { width, height: 900 } });
  await watchLayoutShift(context);
  if (init) await context.addInitScript(init);
  await countCreates(context);
  const page = await context.newPage();
  const errors = recordConsoleErrors(page);
  await page.goto(`${inject('demoUrl')}/`);
  await page.locator('.app').waitFor();
  await page.waitForTimeout(1500);
  return { page, errors, close: () => context.close() };
}

describe.each([390, 1280])("Chrome's built-in model in the demo at %i px", (width) => {
  it('is offered first for translation, says why ghost text cannot run, and creates nothing', async () => {
    const { page, errors, close } = await open(width);
    expect(await realAnswers(page)).toEqual({ prompt: 'unavailable', translation: 'downloadable' });
    const offer = page.locator('.built-in-offer');
    expect(await offer.getAttribute('data-built-in')).toBe('offered');
    // Above the no-WebGPU notice: offered first.
    const [offerTop, noticeTop] = await Promise.all([offer.boundingBox(), page.locator('.notice').boundingBox()]);
    expect(offerTop!.y).toBeLessThan(noticeTop!.y);
    const parts = offer.locator('li');
    expect(await parts.evaluateAll((items) => items.map((item) => item.getAttribute('data-state')))).toEqual([
      'unavailable',
      'downloadable',
    ]);
    await expect(parts.nth(0).innerText()).resolves.toMatch(/^Ghost text: cannot run on this device \(Chrome asks for 22 GB/);
    await expect(parts.nth(1).innerText()).resolves.toMatch(/^Translation \(English to French\): can run here after a one-time download/);
    expect(await offer.getByRole('button', { name: "Use Chrome's built-in model" }).count()).toBe(1);
    // The picker lists it first, for what runs here.
    const picker = page.getByLabel('Model', { exact: true });
    expect(await picker.locator('optgroup').first().getAttribute('label')).toBe("In this browser (Chrome's built-in AI)");
    await expect(picker.locator('option[value="built-in"]').textContent()).resolves.toBe("Chrome's built-in model (translation only)");
    expect(await creates(page)).toEqual({ LanguageModel: 0, Translator: 0, LanguageDetector: 0 });
    const { scrollWidth, viewport, overflowing } = await sideways(page);
    expect({ sideways: Math.max(0, scrollWidth - viewport), overflowing }).toEqual({ sideways: 0, overflowing: [] });
    expect((await layoutShift(page)).total).toBeLessThanOrEqual(0.02);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, `demo-${width}-built-in-offer`);
    expect(errors).toEqual([]);
    await close();
  });
});

describe("choosing Chrome's built-in model", () => {
  it('a click starts the en→fr download (Chrome accepts it: no gesture error) and never the Prompt API; a later visit waits for a click', async () => {
    const { page, close } = await open(1280);
    await page.getByRole('button', { name: "Use Chrome's built-in model" }).click();
    await page.locator('.app[data-engine="built-in"]').waitFor();
    await page.locator('.inkling-inspector[data-phase="loading"]').first().waitFor();
    await page.waitForTimeout(1500);
    // Offline the download cannot progress: still loading, not refused for want of a click.
    expect(await page.locator('.inkling-inspector').first().getAttribute('data-phase')).toBe('loading');
    // (An empty alert region stays in place for a message to come: it says nothing.)
    expect((await page.locator('[role="alert"]').allTextContents()).filter((text) => text.trim())).toEqual([]);
    expect(await creates(page)).toEqual({ LanguageModel: 0, Translator: 1, LanguageDetector: 0 });
    expect(await page.locator('.built-in-offer').count()).toBe(0);
    expect(await page.getByLabel('Model', { exact: true }).inputValue()).toBe('built-in');
    await expect(page.locator('#note-hint').textContent()).resolves.toMatch(/on this device Chrome's built-in model only translates/);
    await screenshot(page, 'demo-1280-built-in-chosen');
    // The next visit remembers the choice but downloads only on a click.
    await page.reload();
    await page.locator('.app[data-engine="built-in"]').waitFor();
    await page.waitForTimeout(1000);
    await expect(page.locator('.engine-status').textContent()).resolves.toMatch(/Model not loaded/);
    expect(await creates(page)).toEqual({ LanguageModel: 0, Translator: 0, LanguageDetector: 0 });
    await page.getByRole('button', { name: 'Load model' }).click();
    await page.locator('.inkling-inspector[data-phase="loading"]').first().waitFor();
    await page.waitForTimeout(500);
    expect(await creates(page)).toEqual({ LanguageModel: 0, Translator: 1, LanguageDetector: 0 });
    await close();
  });

  it('where the browser has none of the APIs, one sentence says why and nothing is offered', async () => {
    const { page, errors, close } = await open(390, () => {
      for (const name of ['LanguageModel', 'Translator', 'LanguageDetector']) delete (window as unknown as Record<string, unknown>)[name];
    });
    const line = page.locator('.built-in-line');
    expect(await line.getAttribute('data-built-in')).toBe('absent');
    await expect(line.textContent()).resolves.toMatch(
      /^Chrome's built-in model is not in this browser: it ships in desktop Chrome and Edge \(138 and later for translation, 148 for prompts\), not on mobile or in other browsers\.$/,
    );
    expect(await page.getByRole('button', { name: "Use Chrome's built-in model" }).count()).toBe(0);
    expect(await page.locator('option[value="built-in"]').count()).toBe(0);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'demo-390-built-in-absent');
    expect(errors).toEqual([]);
    await close();
  });
});
