import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { makeTinyGguf } from '@inkling/wllama/testing';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screenshot } from './support/artifacts.js';
import { launchChromium } from './support/chromium.js';
import { typeAtEnd, waitForSuggestion } from './support/demoStates.js';
import { recordRequests, sideways } from './support/pageChecks.js';
import { serveStatic } from './support/serveStatic.js';

// The demo's CPU engine (wllama) in a browser without WebGPU. The catalogue's
// model lives on Hugging Face, which these tests never reach; a tiny GGUF
// written here and served next to the demo at /models/ stands in for it
// through the demo's `?cpuModel=` parameter.

const DEMO = fileURLToPath(new URL('../apps/demo/dist/', import.meta.url));
const MODELS = fileURLToPath(new URL('../.test-models/e2e/', import.meta.url));

/** The catalogue model's file, llama.cpp's WebAssembly, or a GGUF: what must wait for a person. */
const downloads = (requests: string[]) =>
  requests.filter((url) => /huggingface/.test(new URL(url).host) || /\.(wasm|gguf)$/i.test(new URL(url).pathname));

let browser: Browser;
let demo: { url: string; close: () => Promise<void> };

beforeAll(async () => {
  mkdirSync(MODELS, { recursive: true });
  writeFileSync(`${MODELS}chat.gguf`, makeTinyGguf({ seed: 1 }));
  demo = await serveStatic(DEMO, { '/models/': MODELS });
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await demo?.close();
});

async function open(query = '', width = 1280): Promise<{ page: Page; requests: string[]; close: () => Promise<void> }> {
  const context = await browser.newContext({ viewport: { width, height: width < 600 ? 844 : 800 } });
  const page = await context.newPage();
  // Never a real download, whether or not this machine is online: the model's host is unreachable.
  await page.route(/huggingface\.co/, (route) => route.abort('internetdisconnected'));
  const requests = recordRequests(page);
  await page.goto(`${demo.url}/${query}`);
  await page.locator('.notice').waitFor();
  return { page, requests, close: () => context.close() };
}

const offerButtons = (page: Page) => page.locator('.notice-offers button');

describe('the demo without WebGPU', () => {
  for (const width of [390, 1280]) {
    it(`offers the CPU engine first with its download size, the simulated engine second (${width} px)`, async () => {
      const { page, requests, close } = await open('', width);
      await expect(offerButtons(page).allTextContents()).resolves.toEqual([
        'Run a model on the CPU (SmolLM2-360M-Instruct · 386 MB)',
        'Use the simulated engine',
      ]);
      await expect(page.locator('.notice-offers li').nth(1).textContent()).resolves.toMatch(/No model runs: a fake engine/);
      // The picker lists the CPU models first after Chrome's built-in model (this Chromium's translator
      // can run, its Prompt API cannot), with their sizes, and the simulated engine by name.
      const options = await page.getByLabel('Model', { exact: true }).locator('option').allTextContents();
      expect(options.slice(0, 3)).toEqual([
        'Choose an engine that runs here',
        "Chrome's built-in model (translation only)",
        'SmolLM2-360M-Instruct · downloads 386 MB',
      ]);
      await expect(
        page.getByLabel('Model', { exact: true }).evaluate((select: HTMLSelectElement) => select.selectedOptions[0]?.textContent),
      ).resolves.toBe('Choose an engine that runs here');
      expect(options).toContain('Simulated engine (no model)');
      const { overflowing } = await sideways(page);
      expect(overflowing).toEqual([]);
      await screenshot(page, `cpu-offer-no-webgpu-${width}`);
      await page.waitForTimeout(1000);
      expect(downloads(requests)).toEqual([]);
      await close();
    });
  }

  it('an unreachable model host shows ModelFetchError readably, and the simulated engine still runs', async () => {
    const { page, requests, close } = await open();
    await offerButtons(page).first().click();
    const error = page.locator('.inkling-model-load[data-status="error"]');
    await error.waitFor({ timeout: 20_000 });
    expect(requests.some((url) => /huggingface\.co/.test(url))).toBe(true);
    const advice = error.locator('.inkling-model-load-advice');
    await expect(advice.textContent()).resolves.toMatch(/model files could not be downloaded. Check the network connection/);
    await expect(advice.textContent()).resolves.not.toMatch(/@inkling|ModelFetchError|\[object/);
    // The error's name is for developers, behind Details.
    await expect(error.locator('details').textContent()).resolves.toMatch(/ModelFetchError/);
    await screenshot(page, 'cpu-model-fetch-error-1280');
    // One message, and the way on stays: the notice still offers the simulated engine, without repeating the failure.
    await expect(page.getByRole('button', { name: 'Use the simulated engine' }).isVisible()).resolves.toBe(true);
    await expect(page.locator('.notice').innerText()).resolves.not.toMatch(/could not be downloaded/);
    await page.getByLabel('Model', { exact: true }).selectOption('simulated');
    await page.locator('.app[data-engine="simulated"] .inkling-inspector[data-phase="ready"]').first().waitFor();
    await typeAtEnd(page, ' Next we');
    await expect(waitForSuggestion(page)).resolves.not.toBe('');
    await close();
  });

  it('loads a GGUF on the CPU once a person asks, and its ghost text appears in the editor', async () => {
    const { page, requests, close } = await open('?cpuModel=/models/chat.gguf');
    await expect(offerButtons(page).first().textContent()).resolves.toBe('Run a model on the CPU (chat.gguf)');
    expect(downloads(requests)).toEqual([]);
    // A slow line (2 MB/s), so the download is seen in bytes as it goes.
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: 2_000_000, uploadThroughput: -1 });
    await offerButtons(page).first().click();
    // The download's bytes on the header's one line, "Runs on: … · loading 40% (3.6 MB of 9 MB)".
    const detail = page.locator('.engine-line .engine-state');
    await expect.poll(() => detail.textContent(), { timeout: 15_000 }).toMatch(/[1-9][\d.]* MB of 9(\.\d+)? MB/);
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
    await page.locator('.app[data-engine="cpu"] .inkling-inspector[data-phase="ready"]').first().waitFor({ timeout: 30_000 });
    expect(requests.some((url) => url.endsWith('/models/chat.gguf'))).toBe(true);
    // The CPU pool has one engine: each wllama engine holds its own copy of the weights.
    await expect(page.locator('.app-inspector .inkling-inspector').first().innerText()).resolves.toMatch(/Engines\s+1 of 1/);
    await typeAtEnd(page, ' Next we');
    const suggestion = await waitForSuggestion(page);
    expect(suggestion.length).toBeGreaterThan(0);
    await screenshot(page, 'cpu-engine-suggestion-1280');
    await close();
  });
});
