import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { screenshot } from './support/artifacts.js';
import { launchChromium } from './support/chromium.js';

let browser: Browser;

beforeAll(async () => {
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
});

/** Opens one story on its own (no Storybook chrome), as the built Storybook serves it. */
async function openStory(id: string): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 820 } });
  await page.goto(`${inject('storybookUrl')}/iframe.html?id=${id}&viewMode=story`);
  await page.locator('#storybook-root > *').first().waitFor();
  return page;
}

describe('the built Storybook', () => {
  it('the scheduler playground shows a preemption while its play function types over the batch', async () => {
    const page = await openStory('playground--scheduler-playground');
    const preempted = page.locator('.inkling-inspector-counts [data-outcome="preempted"]');
    await expect.poll(() => preempted.getAttribute('data-count'), { timeout: 30_000 }).not.toBe('0');
    await screenshot(page, 'story-playground');
    await page.close();
  });

  it.each([
    ['components-ghosttextarea--suggesting', '.inkling-ghost-textarea[data-has-suggestion="true"]'],
    ['components-ghosttextarea--mid-text', '.inkling-ghost-textarea[data-has-suggestion="true"]'],
    ['components-translatelist--translating', '.inkling-translate-list'],
    ['components-modelloadprogress--no-web-gpu', '.inkling-model-load'],
    ['components-poolinspector--busy', '.inkling-inspector'],
  ])('%s renders and is saved as a screenshot', async (id, selector) => {
    const page = await openStory(id);
    await page.locator(selector).first().waitFor({ timeout: 20_000 });
    expect(await page.locator(selector).count()).toBeGreaterThan(0);
    await screenshot(page, `story-${id}`);
    await page.close();
  });
});
