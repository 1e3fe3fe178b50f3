import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { screenshot } from './support/artifacts.js';
import { launchChromium } from './support/chromium.js';
import { overlaps } from './support/pageChecks.js';

let browser: Browser;

beforeAll(async () => {
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
});

/** Opens one story on its own (no Storybook chrome), as the built Storybook serves it. */
async function openStory(id: string, width = 1280): Promise<Page> {
  const page = await browser.newPage({ viewport: { width, height: 820 } });
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
    // What the play function typed reads as words, not "thex".
    await expect.poll(() => page.getByRole('textbox', { name: 'Note' }).inputValue(), { timeout: 20_000 }).toMatch(/^Thanks for the team/);
    await page.close();
  });

  // 900 px: about the canvas Storybook leaves at 1280 px beside its sidebar and panel.
  it.each([1280, 900])('in "Mixed pools" at %i px nothing overlaps and each inspector stays inside its card', async (width) => {
    const page = await openStory('playground-mixed-pools--local-ghost-text-remote-translation', width);
    await expect.poll(() => page.locator('.inkling-translate-list').getAttribute('data-status'), { timeout: 30_000 }).toBe('done');
    await screenshot(page, `story-mixed-pools-${width}`);
    expect(await overlaps(page, ['.inkling-ghost-textarea', '.inkling-translate-table', '.inkling-inspector'])).toEqual([]);
    const spills = await page.evaluate(() =>
      [...document.querySelectorAll('.playground-panel')].flatMap((card) => {
        const edge = card.getBoundingClientRect().right;
        const inspector = card.querySelector('.inkling-inspector')?.getBoundingClientRect();
        return inspector && inspector.right > edge ? [card.querySelector('h2')?.textContent ?? '?'] : [];
      }),
    );
    expect(spills).toEqual([]);
    // Every job column keeps room; the panel scrolls instead.
    const narrow = await page.locator('.inkling-jobs th').evaluateAll((cells) => cells.filter((cell) => cell.getBoundingClientRect().width < 30).map((cell) => cell.textContent));
    expect(narrow).toEqual([]);
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
