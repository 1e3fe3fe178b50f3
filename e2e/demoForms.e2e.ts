import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { screenshot } from './support/artifacts.js';
import { launchChromium } from './support/chromium.js';
import { NOWHERE, typeAtEnd, useServer, waitForSuggestion } from './support/demoStates.js';

let browser: Browser;
let withGpu: Browser;

beforeAll(async () => {
  browser = await launchChromium();
  withGpu = await launchChromium({ webgpu: true });
});

afterAll(async () => {
  await browser?.close();
  await withGpu?.close();
});

async function open(from: Browser = browser, width = 1280): Promise<Page> {
  const page = await from.newPage({ viewport: { width, height: 900 } });
  await page.goto(`${inject('demoUrl')}/?engine=simulated`);
  await page.locator('.inkling-inspector[data-phase="ready"]').first().waitFor();
  return page;
}

describe('a translation server that cannot be reached', () => {
  it('says so at once, in the translate section and in the inspector, and Use tries again', async () => {
    const page = await open();
    const tries: string[] = [];
    page.on('request', (request) => {
      if (request.url().startsWith(NOWHERE)) tries.push(request.url());
    });
    const started = Date.now();
    await useServer(page, NOWHERE);
    // Use answers at once: connecting, then the library's own error.
    await page.locator('.server-status').waitFor({ timeout: 1000 });
    const status = page.locator('.translate .server-status[data-phase="error"]');
    await status.waitFor({ timeout: 10_000 });
    expect(Date.now() - started).toBeLessThan(10_000);
    await expect(status.textContent()).resolves.toContain(`Could not reach the server at ${NOWHERE}`);
    expect(await status.getAttribute('role')).toBe('alert');
    const inspector = page.getByRole('region', { name: `Server pool (${NOWHERE})` });
    await expect(inspector.locator('.inkling-inspector-note[data-kind="error"]').textContent()).resolves.toContain(
      'Could not reach the server at',
    );
    await screenshot(page, 'demo-server-unreachable');
    // Use again connects again (new requests), and fails again with the same words.
    const before = tries.length;
    expect(before).toBeGreaterThan(0);
    await page.getByRole('button', { name: 'Use', exact: true }).click();
    await expect.poll(() => tries.length, { timeout: 10_000 }).toBeGreaterThan(before);
    await status.waitFor({ timeout: 10_000 });
    // So does Try again.
    const again = tries.length;
    await page.getByRole('button', { name: 'Try again' }).click();
    await expect.poll(() => tries.length, { timeout: 10_000 }).toBeGreaterThan(again);
    await page.close();
  });

  it('checks the base URL before trying it: the field is marked, tied to its message, and has the focus', async () => {
    for (const width of [390, 1280]) {
      const page = await open(browser, width);
      await useServer(page, 'localhost:8000');
      const alert = page.locator('.server-form [role="alert"]');
      await expect(alert.textContent()).resolves.toMatch(/http\(s\) base URL/);
      expect(await page.locator('.server-status').count()).toBe(0);
      const field = page.getByLabel('Base URL');
      expect(await field.getAttribute('aria-invalid')).toBe('true');
      expect(await field.getAttribute('aria-describedby')).toBe(await alert.getAttribute('id'));
      expect(await field.evaluate((input) => input === document.activeElement)).toBe(true);
      // A visible border of its own, not the other fields'.
      const border = (locator: typeof field) => locator.evaluate((input) => getComputedStyle(input).borderTopColor);
      expect(await border(field)).not.toBe(await border(page.getByLabel('Model on the server')));
      // "Use" is the form's primary action.
      expect(await page.getByRole('button', { name: 'Use', exact: true }).getAttribute('class')).toContain('primary');
      await screenshot(page, `demo-server-form-invalid-${width}`);
      // A missing model marks that field instead.
      await page.getByLabel('Base URL').fill('http://localhost:8000/v1');
      await page.getByLabel('Model on the server').fill('');
      await page.getByRole('button', { name: 'Use', exact: true }).click();
      expect(await page.getByLabel('Model on the server').getAttribute('aria-invalid')).toBe('true');
      expect(await field.getAttribute('aria-invalid')).toBeNull();
      expect(await page.getByLabel('Model on the server').evaluate((input) => input === document.activeElement)).toBe(true);
      await page.close();
    }
  });
});

describe('the self-hosted model form', () => {
  it('has visible labels, checks its URLs, keeps the running engine, and Cancel leaves it as it was', async () => {
    const page = await open(withGpu);
    const header = await page.locator('.app-header').boundingBox();
    // The choice is one click away from the header's "Runs on" line.
    await page.getByRole('button', { name: 'Change' }).click();
    await page.getByLabel('Model', { exact: true }).selectOption('self-hosted');
    const form = page.getByRole('form', { name: 'Self-hosted model' });
    // It opens under the header, which keeps its height; "Load model" waits for the form.
    expect(await form.evaluate((element) => element.closest('.app-header') === null)).toBe(true);
    expect((await page.locator('.app-header').boundingBox())?.height).toBe(header?.height);
    expect(await page.getByRole('button', { name: 'Load model' }).count()).toBe(0);
    for (const label of ['Model id', 'Weights URL', 'Library URL (.wasm)']) {
      await expect(form.locator('label', { hasText: label }).isVisible()).resolves.toBe(true);
    }
    await form.getByLabel('Model id').fill('my-model');
    await form.getByLabel('Weights URL').fill('not a url');
    await form.getByLabel('Library URL (.wasm)').fill('https://example.com/lib.js');
    await form.getByRole('button', { name: 'Switch to this model' }).click();
    await expect(form.locator('.field-problem').allTextContents()).resolves.toEqual([
      'Enter the http(s) URL of the folder holding the weights.',
      'Enter the http(s) URL of the model library, a file ending in .wasm.',
    ]);
    expect(await form.getByLabel('Weights URL').getAttribute('aria-invalid')).toBe('true');
    // The focus is on the first wrong field.
    expect(await form.getByLabel('Weights URL').evaluate((input) => input === document.activeElement)).toBe(true);
    // Labels stay visible once filled, and the working engine keeps working meanwhile.
    await expect(form.locator('label', { hasText: 'Weights URL' }).isVisible()).resolves.toBe(true);
    expect(await page.locator('.app-inspector .inkling-inspector').first().getAttribute('data-phase')).toBe('ready');
    await typeAtEnd(page, ' Next we');
    await expect(waitForSuggestion(page)).resolves.not.toBe('');
    await screenshot(page, 'demo-self-hosted-form');
    await page.getByRole('button', { name: 'Cancel' }).click();
    expect(await form.count()).toBe(0);
    expect(await page.getByLabel('Model', { exact: true }).inputValue()).toBe('simulated');
    expect(await page.locator('.badge.simulated').count()).toBe(1);
    await page.close();
  });
});

describe('the self-hosted form before any model loaded', () => {
  it('opens under the header (same height), hides "Load model" until it is sent or cancelled, at 390 and 1280 px', async () => {
    for (const width of [390, 1280]) {
      const page = await withGpu.newPage({ viewport: { width, height: 900 } });
      await page.goto(`${inject('demoUrl')}/`);
      await page.getByRole('button', { name: 'Load model' }).waitFor();
      const header = await page.locator('.app-header').boundingBox();
      await page.getByLabel('Model', { exact: true }).selectOption('self-hosted');
      const form = page.getByRole('form', { name: 'Self-hosted model' });
      await form.waitFor();
      expect((await page.locator('.app-header').boundingBox())?.height).toBe(header?.height);
      // Pressing it now would load the model being replaced.
      expect(await page.getByRole('button', { name: 'Load model' }).count()).toBe(0);
      await form.getByRole('button', { name: 'Switch to this model' }).click();
      expect(await form.getByLabel('Model id').evaluate((input) => input === document.activeElement)).toBe(true);
      await screenshot(page, `demo-self-hosted-form-${width}`);
      await form.getByRole('button', { name: 'Cancel' }).click();
      await page.getByRole('button', { name: 'Load model' }).waitFor();
      await page.close();
    }
  });
});

describe('smaller things', () => {
  it('the translation has one Translate button, and a new "Into" keeps the finished rows', async () => {
    const page = await open();
    await page.getByRole('button', { name: 'Translate this page' }).click();
    await page.locator('.translate-list tbody tr[data-status="done"]').first().waitFor({ timeout: 20_000 });
    expect(await page.getByRole('button', { name: /^Translate/ }).count()).toBe(1);
    const done = await page.locator('.translate-list tbody tr[data-status="done"]').count();
    await page.getByLabel('Into').selectOption('Spanish');
    await expect(page.locator('.translate [role="status"]').first().textContent()).resolves.toMatch(/stays in French/);
    expect(await page.locator('.translate-list tbody tr[data-status="done"]').count()).toBeGreaterThanOrEqual(done);
    await expect.poll(() => page.locator('.translate-list').getAttribute('data-status'), { timeout: 60_000 }).toBe('done');
    await expect(page.locator('.translate-list tbody tr td:nth-child(2)').first().textContent()).resolves.toBe('Welcome à Inkling');
    await page.close();
  });

  it('New note puts the focus in the editor', async () => {
    const page = await open();
    await page.getByRole('button', { name: 'New note' }).click();
    await expect(page.evaluate(() => document.activeElement?.id)).resolves.toBe('note-body');
    expect(await page.locator('#note-body').inputValue()).toBe('');
    await page.close();
  });

  it('"Jobs, newest first" lists the newest job first', async () => {
    const page = await open();
    await page.getByRole('button', { name: 'Translate this page' }).click();
    await page.locator('.translate-list tbody tr[data-status="done"]').first().waitFor({ timeout: 20_000 });
    const ids = await page.locator('.app-inspector .inkling-jobs tbody code').allTextContents();
    const numbers = ids.map((id) => Number(id.replace('job-', '')));
    expect(numbers.length).toBeGreaterThan(3);
    expect(numbers).toEqual(numbers.toSorted((a, b) => b - a));
    await page.close();
  });
});
