import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { screenshot } from './support/artifacts.js';
import { launchChromium } from './support/chromium.js';

// The demo's opt-in shared pool (?pool=shared): every tab of the origin on one simulated pool in a SharedWorker.

let browser: Browser;
let context: BrowserContext;

beforeAll(async () => {
  browser = await launchChromium();
  context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
});

afterAll(async () => {
  await browser?.close();
});

async function openTab(): Promise<Page> {
  const page = await context.newPage();
  await page.goto(`${inject('demoUrl')}/?engine=simulated&pool=shared`);
  await page.locator('.inkling-inspector[data-phase="ready"]').first().waitFor();
  return page;
}

describe('the demo with ?pool=shared', () => {
  it("serves two tabs from one pool, and each tab's inspector names the tab a job came from", async () => {
    const a = await openTab();
    const b = await openTab();
    const editor = b.locator('#note-body');
    await editor.click({ position: { x: 4, y: 4 } });
    await b.keyboard.press('Control+End');
    await b.keyboard.type(' Next we', { delay: 60 });
    await b.locator('.inkling-ghost-textarea[data-has-suggestion="true"][data-state="done"]').waitFor({ timeout: 15_000 });
    // B's ghost text ran on the shared pool: A sees it, owned by B's tab (the second to connect).
    const ownersSeenByA = () =>
      a.locator('.inkling-task[data-owner]').evaluateAll((cells) => cells.map((cell) => (cell as HTMLElement).dataset.owner));
    await expect.poll(ownersSeenByA, { timeout: 10_000 }).toContain('tab-2');
    // B's suggestions among its jobs (the note's action items run on the same pool).
    const bOwnRow = b.locator('.inkling-task[data-owner="tab-2"]', { hasText: 'notes-editor' }).first();
    await expect(bOwnRow.textContent()).resolves.toMatch(/^notes-editor/);
    // Readable in A: B's job without B's scope before its id and task, the tab named, the pool said to be shared.
    const seenInA = a
      .locator('.inkling-jobs tr')
      .filter({ has: a.locator('.inkling-task[data-owner="tab-2"]', { hasText: 'notes-editor' }) })
      .first();
    await expect(seenInA.locator('code').textContent()).resolves.not.toContain('|');
    // The editor's suggestion or its speculative next one (session `notes-editor:next`).
    await expect(seenInA.locator('.inkling-task').textContent()).resolves.toMatch(/^notes-editor(:next)? · tab 2$/);
    await expect(a.locator('.inkling-inspector-note[data-kind="shared"]').count()).resolves.toBe(1);
    for (const width of [1280, 390]) {
      await a.setViewportSize({ width, height: 900 });
      await a.locator('.inkling-inspector').scrollIntoViewIfNeeded();
      await screenshot(a, `shared-pool-inspector-${width}`);
    }
  });
});
