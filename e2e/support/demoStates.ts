import type { Page } from 'playwright-core';

/** Nothing listens here: the address of a server that cannot be reached. */
export const NOWHERE = 'http://127.0.0.1:9/v1';

/** Puts the caret at the end of the note and types like a person. */
export async function typeAtEnd(page: Page, text: string): Promise<void> {
  // A corner of the textarea: a click on the ghost text itself would accept it.
  await page.locator('#note-body').click({ position: { x: 4, y: 4 } });
  await page.keyboard.press('Control+End');
  await page.keyboard.type(text, { delay: 60 });
}

/** Waits until a suggestion has finished streaming, and returns it. */
export async function waitForSuggestion(page: Page): Promise<string> {
  await page.locator('.inkling-ghost-textarea[data-has-suggestion="true"][data-state="done"]').waitFor({ timeout: 15_000 });
  return (await page.locator('[data-inkling-ghost]').first().textContent()) ?? '';
}

/** Points the page translation at a server through the "Runs on" form, and presses Use. */
export async function useServer(page: Page, baseURL: string, model = 'some-model'): Promise<void> {
  await page.getByLabel('Runs on').selectOption('server');
  await page.getByLabel('Base URL').fill(baseURL);
  await page.getByLabel('Model on the server').fill(model);
  await page.getByRole('button', { name: 'Use', exact: true }).click();
}

/** The demo's main states, each reached from the one before on the same page. */
export const STATES: ReadonlyArray<{ name: string; query: string; reach: (page: Page) => Promise<void> }> = [
  { name: 'no-webgpu', query: '', reach: async (page) => void (await page.locator('.notice').waitFor()) },
  {
    name: 'simulated',
    query: '?engine=simulated',
    reach: async (page) => void (await page.locator('.inkling-inspector[data-phase="ready"]').first().waitFor()),
  },
  {
    name: 'suggestion',
    query: '',
    reach: async (page) => {
      await typeAtEnd(page, ' Next we');
      await waitForSuggestion(page);
    },
  },
  {
    name: 'translating',
    query: '',
    reach: async (page) => {
      await page.getByRole('button', { name: 'Translate this page' }).click();
      await page.locator('.translate-list tbody tr[data-status="done"]').first().waitFor({ timeout: 20_000 });
    },
  },
  {
    name: 'server-error',
    query: '',
    reach: async (page) => {
      await useServer(page, NOWHERE);
      await page.locator('.server-status[data-phase="error"]').waitFor({ timeout: 15_000 });
    },
  },
];
