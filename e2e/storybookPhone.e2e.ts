import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { screenshot } from './support/artifacts.js';
import { launchChromium } from './support/chromium.js';
import { sideways } from './support/pageChecks.js';

// Every story and Docs page of the built Storybook on a phone (390 px) and a
// laptop (1280 px): no sideways scroll at 390 px, and axe finds nothing
// serious or critical on a Docs page at either width.

const require = createRequire(import.meta.url);
const INDEX = fileURLToPath(new URL('../stories/storybook-static/index.json', import.meta.url));
const entries = Object.values(
  (JSON.parse(readFileSync(INDEX, 'utf8')) as { entries: Record<string, { id: string; type: 'story' | 'docs' }> }).entries,
);
const stories = entries.filter((e) => e.type === 'story').map((e) => e.id);
const docs = entries.filter((e) => e.type === 'docs').map((e) => e.id);

let browser: Browser;

beforeAll(async () => {
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
});

async function serious(page: Page): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ path: require.resolve('axe-core/axe.min.js') });
  return page.evaluate(async () => {
    type Result = { violations: Array<{ id: string; impact: string | null; nodes: Array<{ target: unknown[] }> }> };
    const axe = (window as unknown as { axe: { run: (context: Document, options: object) => Promise<Result> } }).axe;
    const { violations } = await axe.run(document, { resultTypes: ['violations'] });
    return violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .flatMap((v) => v.nodes.map((node) => `${v.id}: ${node.target.join(' ')}`));
  });
}

async function open(page: Page, id: string, mode: 'story' | 'docs'): Promise<void> {
  await page.goto(`${inject('storybookUrl')}/iframe.html?id=${id}&viewMode=${mode}`);
  await page.locator(mode === 'docs' ? '.sbdocs-content' : '#storybook-root > *').first().waitFor();
  // Let the stories' first renders and the tables' labelling settle.
  await page.waitForTimeout(400);
}

describe('Storybook on a phone and a laptop', () => {
  it('lists stories and Docs pages to check', () => {
    expect(stories.length).toBeGreaterThan(10);
    expect(docs.length).toBeGreaterThan(5);
  });

  it('no story scrolls sideways at 390 px', async () => {
    const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
    const wide: string[] = [];
    for (const id of stories) {
      await open(page, id, 'story');
      const { scrollWidth, viewport } = await sideways(page);
      if (scrollWidth > viewport) wide.push(`${id}: ${scrollWidth} px`);
      if (id === 'playground-mixed-pools--default' || id.startsWith('playground-mixed-pools')) await screenshot(page, `storybook-${id}-390`);
    }
    expect(wide).toEqual([]);
    await page.close();
  }, 300_000);

  it.each([390, 1280])('every Docs page at %i px: no sideways scroll (390), no serious or critical axe finding', async (width) => {
    const page = await browser.newPage({ viewport: { width, height: 844 } });
    const found: string[] = [];
    for (const id of docs) {
      await open(page, id, 'docs');
      if (width === 390) {
        const { scrollWidth, viewport } = await sideways(page);
        if (scrollWidth > viewport) found.push(`${id}: scrolls sideways (${scrollWidth} px)`);
      }
      for (const violation of await serious(page)) found.push(`${id}: ${violation}`);
      if (/translatelist|usebatchtranslate/i.test(id)) await screenshot(page, `storybook-docs-${id}-${width}`);
    }
    expect(found).toEqual([]);
    await page.close();
  }, 300_000);
});
