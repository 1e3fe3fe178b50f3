import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { screenshot } from './support/artifacts.js';
import { launchChromium } from './support/chromium.js';

// After a failed load the page stops promising: no suggestion waits "queued" for a model that is
// not coming, no translation row waits "Queued" under a pool in error, the hint no longer names
// Tab, and the engines that do run here are still offered.

let browser: Browser;

beforeAll(async () => {
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
});

/** The demo with a saved CPU model whose download fails (no WebGPU in this Chromium). */
async function failedCpuDownload(width: number): Promise<Page> {
  const context = await browser.newContext({ viewport: { width, height: width < 600 ? 844 : 800 } });
  const saved = { kind: 'cpu', model: 'SmolLM2-360M-Instruct-Q8_0', url: 'https://huggingface.co/x/y/resolve/main/model.gguf' };
  await context.addInitScript((choice) => localStorage.setItem('inkling-demo:engine', choice), JSON.stringify(saved));
  await context.route(/huggingface\.co/, (route) => void route.abort('internetdisconnected'));
  const page = await context.newPage();
  await page.goto(`${inject('demoUrl')}/`);
  await page.locator('.engine-status .inkling-model-load-error').waitFor({ timeout: 30_000 });
  return page;
}

describe('after a failed model download', () => {
  it.each([390, 768, 1280])('at %i px: the offers stay, the hint drops Tab, and nothing waits queued', async (width) => {
    const page = await failedCpuDownload(width);
    try {
      // What runs here anyway is still offered.
      await expect(page.getByRole('button', { name: 'Use the simulated engine' }).isVisible()).resolves.toBe(true);
      // The hint says why there are no suggestions instead of how to accept one.
      const hint = page.locator('#note-hint');
      await expect(hint.innerText()).resolves.not.toMatch(/Tab/);
      await expect(hint.innerText()).resolves.toMatch(/did not load/);
      // Typing asks for nothing that would wait for ever (the engine panel, open over the page
      // with the error, is closed first, as a person would).
      const close = page.locator('button[aria-controls="engine-panel"]', { hasText: 'Close' });
      if (await close.isVisible()) await close.click();
      await page.locator('#note-body').click({ position: { x: 4, y: 4 } });
      await page.keyboard.press('Control+End');
      await page.keyboard.type(' and then', { delay: 30 });
      await page.waitForTimeout(800);
      await expect(page.locator('.inkling-ghost-textarea').getAttribute('data-state')).resolves.not.toBe('queued');
      // "Translate this page" does not queue rows under a pool in error.
      const translate = page.getByRole('button', { name: 'Translate this page' });
      if (await translate.isEnabled()) {
        await translate.click();
        await page.waitForTimeout(500);
      }
      const waiting = await page.locator('.translate tr[data-status="queued"]').count();
      expect(waiting).toBe(0);
      await screenshot(page, `failed-load-${width}`);
    } finally {
      await page.context().close();
    }
  });
});
