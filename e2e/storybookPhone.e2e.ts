import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { screenshot } from './support/artifacts.js';
import { chromium } from 'playwright-core';
import { CHROMIUM, chromiumFlags } from './support/chromiumFlags.js';
import { sideways } from './support/pageChecks.js';

// Every story and Docs page of the built Storybook on a phone (390 px) and a
// laptop (1280 px): no sideways scroll on any story at 390 px, and on every
// Docs page no sideways scroll at 390 px and nothing serious or critical from
// axe at either width. One browser and one context for all of it, a few pages
// side by side, each width on pages of its own (opened at that width, never
// resized midway).

const require = createRequire(import.meta.url);
const INDEX = fileURLToPath(new URL('../stories/storybook-static/index.json', import.meta.url));
const entries = Object.values(
  (JSON.parse(readFileSync(INDEX, 'utf8')) as { entries: Record<string, { id: string; type: 'story' | 'docs' }> }).entries,
);
const stories = entries.filter((e) => e.type === 'story').map((e) => e.id);
const docs = entries.filter((e) => e.type === 'docs').map((e) => e.id);
/** Pages at once per width: enough to overlap one page's waiting with another's work on two cores. */
const PAGES = 2;
const AXE = require.resolve('axe-core/axe.min.js');

type Check = { id: string; mode: 'story' | 'docs'; width: number };
let browser: Browser;
let context: BrowserContext;

beforeAll(async () => {
  // Pages side by side are tabs of one window: only one is in front, and Chromium would throttle the
  // others' timers and frames, so a Docs page's stories in a tab behind would be checked half laid out.
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      ...chromiumFlags(),
      '--disable-renderer-backgrounding',
      '--disable-background-timer-throttling',
      '--disable-backgrounding-occluded-windows',
    ],
  });
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

/**
 * Serious findings that last: a finding axe still sees a second later. A story caught mid-layout on
 * a loaded machine (a region scrollable for one frame while its content grows) is not what a person
 * meets; a real finding is there both times.
 */
async function lastingSerious(page: Page): Promise<string[]> {
  const first = await serious(page);
  if (first.length === 0) return first;
  await page.waitForTimeout(1000);
  const again = new Set(await serious(page));
  return first.filter((finding) => again.has(finding));
}

/** Loads `check`'s entry and lets its first renders (and the tables' labelling) settle; axe in it for a Docs page. */
async function load(page: Page, { id, mode }: Check): Promise<void> {
  await page.goto(`${inject('storybookUrl')}/iframe.html?id=${id}&viewMode=${mode}`);
  await page
    .locator(mode === 'docs' ? '.sbdocs-content' : '#storybook-root > *')
    .first()
    .waitFor();
  if (mode === 'docs') await page.addScriptTag({ path: AXE });
  await page.waitForTimeout(400);
  // On a busy machine a Docs page's stories may still be laying out: wait (10 s at most) until no story's
  // box changes size over 500 ms, so axe judges the page a person sees, not a frame of its first layout.
  if (mode === 'docs') {
    await page
      .waitForFunction(
        () => {
          const state = window as unknown as { lastLayout?: string; stableSince?: number };
          const layout = [...document.querySelectorAll('.docs-story')]
            .map((s) => `${s.scrollWidth}x${s.scrollHeight}/${s.clientWidth}x${s.clientHeight}`)
            .join();
          if (layout !== state.lastLayout) [state.lastLayout, state.stableSince] = [layout, performance.now()];
          return performance.now() - (state.stableSince ?? 0) >= 500;
        },
        undefined,
        { polling: 50, timeout: 10_000 },
      )
      .catch(() => {});
  }
}

/** Runs `checks` (all at one width) over PAGES preview pages at once; returns every finding. */
async function checkAll(checks: readonly Check[], findings: (page: Page, check: Check) => Promise<string[]>): Promise<string[]> {
  const queue = [...checks];
  const found: string[] = [];
  await Promise.all(
    Array.from({ length: PAGES }, async () => {
      const page = await context.newPage();
      await page.setViewportSize({ width: checks[0]?.width ?? 390, height: 844 });
      for (let check = queue.shift(); check; check = queue.shift()) {
        await load(page, check);
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
    // Each width on pages of its own, opened at that width: a page resized midway lays out its stories again as they render.
    const found = await Promise.all(
      [390, 1280].map((width) =>
        checkAll(
          docs.map((id) => ({ id, mode: 'docs' as const, width })),
          async (page, check) => {
            const wide = check.width === 390 ? await scrollsSideways(page, check) : [];
            const axe = (await lastingSerious(page)).map((violation) => `${check.id} at ${check.width} px: ${violation}`);
            if (/translatelist|usebatchtranslate/i.test(check.id)) await screenshot(page, `storybook-docs-${check.id}-${check.width}`);
            return [...wide, ...axe];
          },
        ),
      ),
    );
    expect(found.flat()).toEqual([]);
  }, 120_000);
});
