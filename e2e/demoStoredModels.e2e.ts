import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { makeTinyGguf } from '@inkling/wllama/testing';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screenshot } from './support/artifacts.js';
import { launchChromium } from './support/chromium.js';
import { serveStatic } from './support/serveStatic.js';

// "Models on this device" in the demo, kept current: a model downloaded here is listed when its
// load ends (no reload), and another tab's download is shown as one, with words a person can act
// on. A tiny GGUF served next to the demo at /models/ stands in for the catalogue's model.

const DEMO = fileURLToPath(new URL('../apps/demo/dist/', import.meta.url));
const MODELS = fileURLToPath(new URL('../.test-models/e2e-stored/', import.meta.url));

let browser: Browser;
let demo: { url: string; close: () => Promise<void> };

beforeAll(async () => {
  mkdirSync(MODELS, { recursive: true });
  writeFileSync(`${MODELS}chat.gguf`, makeTinyGguf({ seed: 2 }));
  demo = await serveStatic(DEMO, { '/models/': MODELS });
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await demo?.close();
});

async function open(context: BrowserContext, query: string): Promise<Page> {
  const page = await context.newPage();
  await page.route(/huggingface\.co/, (route) => route.abort('internetdisconnected'));
  await page.goto(`${demo.url}/${query}`);
  await page.locator('.app').waitFor();
  return page;
}

/** Opens "Models on this device" and returns the manager inside it. */
async function storedModels(page: Page) {
  const panel = page.locator('details.stored-models');
  if ((await panel.getAttribute('open')) === null) await panel.locator('summary').click();
  await panel.locator('.inkling-model-manager[data-status="ready"]').waitFor();
  return panel.locator('.inkling-model-manager');
}

const row = (page: Page) => page.locator('.inkling-model-manager li[data-model$="/models/chat.gguf"]');

describe('Models on this device', () => {
  it.each([390, 768, 1280])('at %i px: lists the model as soon as its download ends, without a reload', async (width) => {
    const context = await browser.newContext({ viewport: { width, height: width < 600 ? 844 : 800 } });
    const page = await open(context, '?cpuModel=/models/chat.gguf');
    const manager = await storedModels(page);
    await expect(manager.innerText()).resolves.toMatch(/No models are stored/);
    await page.locator('.notice-offers button').first().click();
    await page.locator('.app[data-engine="cpu"] .inkling-inspector[data-phase="ready"]').first().waitFor({ timeout: 30_000 });
    // Choosing the engine built the page's panels anew (the panel was read while the download ran).
    await storedModels(page);
    await row(page).waitFor({ timeout: 5_000 });
    await expect(row(page).innerText()).resolves.toMatch(/MB/);
    // Its load over, it can be deleted (a moment after the load, when the lock is let go).
    await expect.poll(() => row(page).locator('button').count(), { timeout: 5_000 }).toBe(1);
    await expect(manager.innerText()).resolves.not.toMatch(/No models are stored/);
    await row(page).scrollIntoViewIfNeeded();
    await screenshot(page, `stored-models-after-download-${width}`);
    await context.close();
  });

  it('shows another tab’s download as a download, with what has arrived, and no Delete meanwhile', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const watcher = await open(context, '?engine=simulated&cpuModel=/models/chat.gguf');
    await storedModels(watcher);
    const downloader = await open(context, '?cpuModel=/models/chat.gguf');
    // A slow line, so the other tab's download lasts a few seconds.
    const cdp = await context.newCDPSession(downloader);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: 1_500_000, uploadThroughput: -1 });
    await downloader.locator('.notice-offers button').first().click();
    await row(watcher).waitFor({ timeout: 10_000 });
    const during = await row(watcher).innerText();
    expect(during).toMatch(/Downloading/);
    expect(during).not.toMatch(/\b0 B\b|partial/);
    expect(await row(watcher).locator('button').count()).toBe(0);
    await watcher.bringToFront();
    await screenshot(watcher, 'stored-models-other-tab-downloading-1280');
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
    // Once the other tab is done with it, it is listed whole, with its Delete.
    await expect.poll(() => row(watcher).locator('button').count(), { timeout: 20_000 }).toBe(1);
    await expect(row(watcher).innerText()).resolves.toMatch(/MB/);
    await expect(row(watcher).innerText()).resolves.not.toMatch(/Downloading|loading/);
    await context.close();
  });
});
