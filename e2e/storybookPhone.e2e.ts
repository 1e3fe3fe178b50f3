import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { screenshot } from './support/artifacts.js';
import { launchChromium } from './support/chromium.js';
import { sideways } from './support/pageChecks.js';

// Every story and Docs page of the built Storybook on a phone (390 px) and a
// laptop (1280 px): no sideways scroll on any story at 390 px, and on every
// Docs page no sideways scroll at 390 px and nothing serious or critical from
// axe at either width. One browser, one context, a few preview pages side by
// side; each page loads Storybook's preview once and is then switched from
// story to story over Storybook's own channel, as its manager does, instead
// of loading the whole preview again for every entry.

const require = createRequire(import.meta.url);
const INDEX = fileURLToPath(new URL('../stories/storybook-static/index.json', import.meta.url));
const entries = Object.values(
  (JSON.parse(readFileSync(INDEX, 'utf8')) as { entries: Record<string, { id: string; type: 'story' | 'docs' }> }).entries,
);
const stories = entries.filter((e) => e.type === 'story').map((e) => e.id);
const docs = entries.filter((e) => e.type === 'docs').map((e) => e.id);
/** Preview pages at once: enough to overlap one page's waiting with another's work on two cores. */
const PAGES = 3;
const AXE = require.resolve('axe-core/axe.min.js');

type Check = { id: string; mode: 'story' | 'docs'; width: number };
let browser: Browser;
let context: BrowserContext;

beforeAll(async () => {
  browser = await launchChromium();
  context = await browser.newContext({ viewport: { width: 390, height: 844 } });
});

afterAll(async () => {
  await browser?.close();
});

async function serious(page: Page): Promise<string[]> {
  return page.evaluate(async () => {
    type Result = { violations: Array<{ id: string; impact: string | null; nodes: Array<{ target: unknown[] }> }> };
    const axe = (window as unknown as { axe: { run: (context: Document, options: object) => Promise<Result> } }).axe;
    const { violations } = await axe.run(document, { resultTypes: ['violations'] });
    return violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .flatMap((v) => v.nodes.map((node) => `${v.id}: ${node.target.join(' ')}`));
  });
}

/** A preview page, loaded once, axe in it. */
async function previewPage(): Promise<Page> {
  const page = await context.newPage();
  await page.goto(`${inject('storybookUrl')}/iframe.html?id=${docs[0]}&viewMode=docs`);
  await page.waitForFunction(() => '__STORYBOOK_ADDONS_CHANNEL__' in window);
  await page.locator('.sbdocs-content').first().waitFor();
  await page.addScriptTag({ path: AXE });
  return page;
}

/**
 * Shows `id` in the page over Storybook's channel: resolves once a Docs page
 * has rendered, or a story has rendered and its play function (if any) has
 * started, then two frames more for layout; rejects on a story's error.
 */
async function show(page: Page, { id, mode }: Check): Promise<void> {
  await page.evaluate(
    ({ id, mode }) =>
      new Promise<void>((resolve, reject) => {
        type Channel = { on: (event: string, fn: (arg: never) => void) => void; off: (event: string, fn: (arg: never) => void) => void; emit: (event: string, arg: object) => void };
        const channel = (window as unknown as { __STORYBOOK_ADDONS_CHANNEL__: Channel }).__STORYBOOK_ADDONS_CHANNEL__;
        const listeners: Array<[string, (arg: never) => void]> = [];
        const listen = (event: string, fn: (arg: never) => void) => {
          listeners.push([event, fn]);
          channel.on(event, fn);
        };
        const finish = (error?: string) => {
          for (const [event, fn] of listeners) channel.off(event, fn);
          if (error) reject(new Error(`${id}: ${error}`));
          else requestAnimationFrame(() => requestAnimationFrame(() => resolve()));
        };
        const timer = setTimeout(() => finish('did not render in 20 s'), 20_000);
        const done = () => {
          clearTimeout(timer);
          finish();
        };
        if (mode === 'docs') listen('docsRendered', (rendered: string) => rendered === id && done());
        else {
          listen('storyRendered', (rendered: string) => rendered === id && done());
          listen('storyRenderPhaseChanged', ({ newPhase, storyId }: { newPhase: string; storyId: string }) => storyId === id && newPhase === 'playing' && done());
        }
        listen('storyErrored', ({ title }: { title?: string }) => finish(`errored: ${title ?? ''}`));
        listen('storyThrewException', ({ message }: { message?: string }) => finish(`threw: ${message ?? ''}`));
        listen('storyMissing', () => finish('missing'));
        channel.emit('setCurrentStory', { storyId: id, viewMode: mode });
      }),
    { id, mode },
  );
}

/** Runs `checks` over PAGES preview pages at once; returns every finding. */
async function checkAll(checks: readonly Check[], findings: (page: Page, check: Check) => Promise<string[]>): Promise<string[]> {
  const queue = [...checks];
  const found: string[] = [];
  await Promise.all(
    Array.from({ length: PAGES }, async () => {
      const page = await previewPage();
      for (let check = queue.shift(); check; check = queue.shift()) {
        if (page.viewportSize()?.width !== check.width) await page.setViewportSize({ width: check.width, height: 844 });
        await show(page, check);
        found.push(...(await findings(page, check)));
      }
      await page.close();
    }),
  );
  return found.toSorted();
}

async function scrollsSideways(page: Page, { id }: Check): Promise<string[]> {
  const { scrollWidth, viewport } = await sideways(page);
  return scrollWidth > viewport ? [`${id}: scrolls sideways (${scrollWidth} px)`] : [];
}

describe('Storybook on a phone and a laptop', () => {
  it('lists stories and Docs pages to check', () => {
    expect(stories.length).toBeGreaterThan(10);
    expect(docs.length).toBeGreaterThan(5);
  });

  it('no story scrolls sideways at 390 px', async () => {
    const checks = stories.map((id) => ({ id, mode: 'story' as const, width: 390 }));
    const found = await checkAll(checks, async (page, check) => {
      if (check.id.startsWith('playground-mixed-pools')) await screenshot(page, `storybook-${check.id}-390`);
      return scrollsSideways(page, check);
    });
    expect(found).toEqual([]);
  }, 120_000);

  it('every Docs page at 390 and 1280 px: no sideways scroll at 390, no serious or critical axe finding', async () => {
    const checks = [390, 1280].flatMap((width) => docs.map((id) => ({ id, mode: 'docs' as const, width })));
    const found = await checkAll(checks, async (page, check) => {
      const wide = check.width === 390 ? await scrollsSideways(page, check) : [];
      const axe = (await serious(page)).map((violation) => `${check.id} at ${check.width} px: ${violation}`);
      if (/translatelist|usebatchtranslate/i.test(check.id)) await screenshot(page, `storybook-docs-${check.id}-${check.width}`);
      return [...wide, ...axe];
    });
    expect(found).toEqual([]);
  }, 120_000);
});
