import { expect } from 'vitest';
import type { Page } from 'playwright-core';

/**
 * The default WebLLM worker was bundled and started from its own file, and
 * answered: the load failed inside the worker with WebLLM's own reason (no
 * model can load here), typed by Inkling, not a crash nor silence.
 */
export async function expectWebLLMWorkerAnswered(page: Page, workerUrls: string[]): Promise<void> {
  await page.waitForFunction(() => document.body.dataset.webllm !== undefined, undefined, { timeout: 30_000 });
  const outcome = await page.evaluate(() => ({ name: document.body.dataset.webllm, message: document.body.dataset.webllmMessage }));
  console.log(`consumer: the WebLLM worker (${workerUrls.join(', ')}) answered ${outcome.name}: ${outcome.message}`);
  expect(`${outcome.name}: ${outcome.message}`).toMatch(
    /^(ModelFetchError|ModelUnreadableError|WebGPUUnavailableError|ModelNotFoundError): /,
  );
  expect(workerUrls.length).toBeGreaterThan(0);
  // A file of the build (not a data: URL inlined from an unbundled copy).
  const paths = workerUrls.map((url) => new URL(url));
  expect(paths.filter((url) => url.protocol !== 'http:' || !url.pathname.endsWith('.js'))).toEqual([]);
}

/** Typing into the GhostTextarea labelled `label` (default "Note") brings a finished suggestion from its pool's engine. */
export async function expectSuggestion(page: Page, label = 'Note'): Promise<string> {
  const textarea = page.getByRole('textbox', { name: label, exact: true });
  await textarea.click();
  await textarea.press('End');
  await textarea.pressSequentially(' The meeting moved to', { delay: 20 });
  const root = page.locator('.inkling-ghost-textarea', { has: textarea });
  await root.and(page.locator('[data-has-suggestion="true"][data-state="done"]')).waitFor({ timeout: 20_000 });
  const suggestion = (await root.locator('[data-inkling-ghost]').first().textContent()) ?? '';
  expect(suggestion.trim().length).toBeGreaterThan(0);
  return suggestion;
}
