import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import { screenshot } from './support/artifacts.js';
import { launchChromium } from './support/chromium.js';

let browser: Browser;
let page: Page;

beforeAll(async () => {
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
});

beforeEach(async () => {
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  page = await context.newPage();
  await page.goto(`${inject('demoUrl')}/?engine=simulated`);
  await page.locator('.inkling-inspector[data-phase="ready"]').waitFor();
});

const editor = () => page.locator('#note-body');
const ghost = () => page.locator('.inkling-ghost-textarea');

/** Puts the caret at the end of the note and types like a person. */
async function typeAtEnd(text: string) {
  // A corner of the textarea: a click on the ghost text itself would accept it.
  await editor().click({ position: { x: 4, y: 4 } });
  await page.keyboard.press('Control+End');
  await page.keyboard.type(text, { delay: 60 });
}

/** Waits until a suggestion has finished streaming, and returns it. */
async function waitForSuggestion(): Promise<string> {
  await page.locator('.inkling-ghost-textarea[data-has-suggestion="true"][data-state="done"]').waitFor({ timeout: 15_000 });
  return (await page.locator('[data-inkling-ghost]').first().textContent()) ?? '';
}

describe('the demo, on the simulated engine', () => {
  it('says the engine is simulated', async () => {
    await expect(page.locator('.badge.simulated').textContent()).resolves.toBe('Simulated');
  });

  it('typing shows a ghost suggestion, and Tab puts it into the text', async () => {
    await typeAtEnd(' Next we');
    const suggestion = await waitForSuggestion();
    expect(suggestion.trim().length).toBeGreaterThan(0);
    await screenshot(page, 'demo-suggestion');
    const before = await editor().inputValue();
    await page.keyboard.press('Tab');
    await expect.poll(() => editor().inputValue()).toBe(before + suggestion);
    // Focus stayed in the editor: Tab was taken by the suggestion.
    await expect(page.evaluate(() => document.activeElement?.id)).resolves.toBe('note-body');
  });

  it('Escape dismisses the suggestion and Tab then moves focus as usual', async () => {
    await typeAtEnd(' The plan');
    await waitForSuggestion();
    const text = await editor().inputValue();
    await page.keyboard.press('Escape');
    await expect.poll(() => ghost().getAttribute('data-has-suggestion')).toBeNull();
    await page.keyboard.press('Tab');
    await expect(page.evaluate(() => document.activeElement?.id)).resolves.not.toBe('note-body');
    expect(await editor().inputValue()).toBe(text);
  });

  it('translating the page while typing finishes every item, ghost text keeps appearing, and the inspector shows a preemption', async () => {
    // Enough paragraphs that the translation outlasts three suggestions even on a loaded machine
    // (simulated tokens come at a fixed rate; typing in a busy Chromium does not).
    const extra = Array.from({ length: 16 }, (_, i) => `Paragraph ${i + 1} of the appendix, kept short on purpose.`);
    await editor().fill(`${await editor().inputValue()}\n\n${extra.join('\n\n')}`);
    await page.getByRole('button', { name: 'Translate this page' }).click();
    const rows = page.locator('.inkling-translate-list tbody tr');
    await rows.first().waitFor();
    const total = await rows.count();
    expect(total).toBeGreaterThan(3);

    // The first suggestion takes an engine from the translation (and the pool grows).
    await typeAtEnd(' Then');
    await waitForSuggestion();
    const preempted = page.locator('.inkling-inspector-counts [data-outcome="preempted"]');
    await expect.poll(() => preempted.getAttribute('data-count')).not.toBe('0');
    // Later ones keep coming while the translation runs.
    for (const word of [' we', ' will']) {
      await typeAtEnd(word);
      await expect(waitForSuggestion()).resolves.not.toBe('');
    }
    expect(await page.locator('.inkling-translate-list').getAttribute('data-status')).toBe('streaming');
    await screenshot(page, 'demo-translating');

    await expect.poll(() => page.locator('.inkling-translate-list').getAttribute('data-status'), { timeout: 60_000 }).toBe('done');
    expect(await page.locator('.inkling-translate-list tbody tr[data-status="done"]').count()).toBe(total);
    await screenshot(page, 'demo-translated');
  });

  it('translates on a server pool while ghost text stays on the device pool', async () => {
    await page.getByLabel('Runs on').selectOption('simulated-server');
    await page.getByRole('button', { name: 'Translate this page' }).click();
    await typeAtEnd(' Later');
    await expect(waitForSuggestion()).resolves.not.toBe('');
    await expect.poll(() => page.locator('.inkling-translate-list').getAttribute('data-status'), { timeout: 30_000 }).toBe('done');
    // The device's inspector never saw the translation: it ran on the server's pool.
    const tasks = await page.getByRole('region', { name: 'Engine pool (this device)' }).locator('.inkling-task').allTextContents();
    expect(tasks.length).toBeGreaterThan(0);
    // Only the editor's suggestions (and the speculative next one, session `notes-editor:next`), and the note's action items.
    expect(tasks.filter((task) => !['notes-editor', 'notes-editor:next', 'action-items'].includes(task))).toEqual([]);
    await screenshot(page, 'demo-server-translation');
  });
});
