import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchChromium } from './support/chromium.js';
import {
  layoutShift,
  noteLayoutShift,
  recordConsoleErrors,
  recordRequests,
  resetLayoutShift,
  watchLayoutShift,
} from './support/pageChecks.js';

/** A request for WebLLM's runtime (its chunk or worker), a model library, weights or a model config. */
const MODEL_OR_LIBRARY = /web-llm|engineWorker|\/assets\/lib-|huggingface|mlc-ai|\.wasm|mlc-chat-config|ndarray-cache|\.bin(\?|$)/i;

const SETTLE_MS = 2500;

let noGpu: Browser;
let withGpu: Browser;

beforeAll(async () => {
  noGpu = await launchChromium();
  withGpu = await launchChromium({ webgpu: true });
});

afterAll(async () => {
  await noGpu?.close();
  await withGpu?.close();
});

async function firstVisit(browser: Browser, query = '') {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  await watchLayoutShift(context);
  const page = await context.newPage();
  const requests = recordRequests(page);
  const errors = recordConsoleErrors(page);
  await page.goto(`${inject('demoUrl')}/${query}`);
  await page.locator('.app').waitFor();
  await page.waitForTimeout(SETTLE_MS);
  return { page, requests, errors, close: () => context.close() };
}

describe('a first visit without WebGPU', () => {
  it('says so once, offers what runs, and shows no Load button and no shader-f16', async () => {
    const { page, requests, errors, close } = await firstVisit(noGpu);
    await expect(page.locator('.notice h2').allTextContents()).resolves.toEqual(['WebGPU is not available in this browser']);
    expect(await page.getByRole('button', { name: 'Use the simulated engine' }).count()).toBe(1);
    expect(await page.getByRole('button', { name: /load model/i }).count()).toBe(0);
    // The reason is one click away, under the heading.
    await page.locator('.notice summary', { hasText: 'Why?' }).click();
    const body = await page.locator('body').innerText();
    expect(body).not.toMatch(/shader-f16/);
    expect(body).not.toMatch(/@inkling|@mlc-ai/);
    // The reason is said once, not repeated by a load error and an alert.
    expect(body.match(/WebGPU is not available/gi)?.length).toBe(1);
    expect(body.match(/no GPU adapter was found/gi)?.length).toBe(1);
    expect(requests.filter((url) => MODEL_OR_LIBRARY.test(url))).toEqual([]);
    expect(errors).toEqual([]);
    await close();
  });

  it('does not move the page while it loads (layout shift at most 0.02)', async () => {
    const { page, close } = await firstVisit(noGpu);
    const { total, shifts } = await layoutShift(page);
    noteLayoutShift('first visit, no WebGPU', total);
    expect({ total: Math.min(total, 0.02), shifts }).toEqual({ total, shifts });
    await close();
  });

  it('typing asks for no suggestion and the editor says why', async () => {
    const { page, close } = await firstVisit(noGpu);
    await page.locator('#note-body').click({ position: { x: 4, y: 4 } });
    await page.keyboard.press('Control+End');
    await page.keyboard.type(' We', { delay: 40 });
    await page.waitForTimeout(800);
    await expect(page.locator('#note-hint').textContent()).resolves.toMatch(/No suggestions yet/);
    expect(await page.locator('#note-body').getAttribute('aria-describedby')).toContain('note-hint');
    // Nothing waits in a queue nobody serves.
    expect(await page.locator('.app-inspector .inkling-inspector').first().getAttribute('data-queued')).toBe('0');
    expect(await page.locator('.app-inspector .inkling-jobs tbody tr[data-outcome]').count()).toBe(0);
    // Nor can a translation be started on a pool with no engine.
    await expect(page.getByRole('button', { name: 'Translate this page' }).isDisabled()).resolves.toBe(true);
    // Choosing the offered engine makes suggestions work.
    await page.getByRole('button', { name: 'Use the simulated engine' }).click();
    await page.locator('.notice').waitFor({ state: 'detached' });
    await page.locator('.inkling-inspector[data-phase="ready"]').first().waitFor();
    await page.locator('#note-body').click({ position: { x: 4, y: 4 } });
    await page.keyboard.press('Control+End');
    await page.keyboard.type(' Then', { delay: 60 });
    await page.locator('.inkling-ghost-textarea[data-has-suggestion="true"]').waitFor({ timeout: 15_000 });
    await close();
  });
});

describe('a first visit with WebGPU on a software adapter (SwiftShader)', () => {
  /** WebLLM's runtime or a WebLLM model; the CPU engine's wasm and GGUF are not this. */
  const WEBLLM = /web-llm|engineWorker|\/assets\/lib-|mlc-ai|mlc-chat-config|ndarray-cache/i;

  it('says so once, starts on the CPU model, downloads nothing until Load model, and does not move the page', async () => {
    const { page, requests, errors, close } = await firstVisit(withGpu);
    // The real adapter, in the shape detectWebGPU reads (Chromium 156 moved the flag into `info`).
    const adapter = await page.evaluate(async () => {
      type Adapter = { isFallbackAdapter?: boolean; info: { isFallbackAdapter?: boolean } };
      const gpu = (navigator as unknown as { gpu?: { requestAdapter(): Promise<Adapter | null> } }).gpu;
      const found = (await gpu?.requestAdapter()) ?? null;
      return found && { old: found.isFallbackAdapter ?? null, info: found.info.isFallbackAdapter ?? null };
    });
    expect(adapter === null ? null : adapter.info === true || adapter.old === true).toBe(true);
    // The reason, once, in the notice.
    await expect(page.locator('.notice h2').allTextContents()).resolves.toEqual(["This browser's WebGPU runs in software"]);
    await page.locator('.notice summary', { hasText: 'Why?' }).click();
    const body = await page.locator('body').innerText();
    expect(body.match(/software adapter/gi)?.length).toBe(1);
    // The CPU engine is the choice and comes first after Chrome's built-in model (offered where this
    // Chromium's translator can run); WebLLM is listed after them, not chosen.
    const picker = page.getByLabel('Model', { exact: true });
    expect(await picker.inputValue()).toMatch(/^cpu:/);
    const groups = await picker.locator('optgroup').evaluateAll((found) => found.map((group) => group.getAttribute('label')));
    expect(groups.slice(0, 2)).toEqual(["In this browser (Chrome's built-in AI)", expect.stringMatching(/CPU/)]);
    await expect(page.locator('.engine-status').textContent()).resolves.toMatch(/Model not loaded/);
    expect(requests.filter((url) => MODEL_OR_LIBRARY.test(url))).toEqual([]);
    const { total, shifts } = await layoutShift(page);
    noteLayoutShift('first visit, WebGPU on SwiftShader', total);
    expect({ total: Math.min(total, 0.02), shifts }).toEqual({ total, shifts });
    expect(errors).toEqual([]);
    // Load model starts the CPU engine (its wasm and GGUF), never WebLLM.
    await page.getByRole('button', { name: 'Load model' }).click();
    await expect.poll(() => requests.filter((url) => /\.wasm|\.gguf/i.test(url)).length, { timeout: 15_000 }).toBeGreaterThan(0);
    expect(requests.filter((url) => WEBLLM.test(url))).toEqual([]);
    await close();
  });

  it('still runs a WebLLM model a person picks from the list', async () => {
    const { page, requests, close } = await firstVisit(withGpu);
    const picker = page.getByLabel('Model', { exact: true });
    const webllm = await picker.locator('optgroup[label*="WebLLM"]').locator('option:not([disabled])').first().getAttribute('value');
    await picker.selectOption(webllm ?? '');
    await expect.poll(() => requests.filter((url) => WEBLLM.test(url)).length, { timeout: 15_000 }).toBeGreaterThan(0);
    await close();
  });
});

describe('the simulated engine', () => {
  it('a first visit and a whole translation move nothing (layout shift at most 0.02 each)', async () => {
    const { page, errors, close } = await firstVisit(noGpu, '?engine=simulated');
    const first = await layoutShift(page);
    noteLayoutShift('first visit, simulated engine', first.total);
    expect({ total: Math.min(first.total, 0.02), shifts: first.shifts }).toEqual(first);
    await resetLayoutShift(page);
    await page.getByRole('button', { name: 'Translate this page' }).click();
    await expect.poll(() => page.locator('.translate-list').getAttribute('data-status'), { timeout: 60_000 }).toBe('done');
    await page.waitForTimeout(500);
    const during = await layoutShift(page);
    noteLayoutShift('a whole translation, simulated engine', during.total);
    expect({ total: Math.min(during.total, 0.02), shifts: during.shifts }).toEqual(during);
    expect(errors).toEqual([]);
    await close();
  });

  it('has a favicon', async () => {
    const { page, close } = await firstVisit(noGpu, '?engine=simulated');
    const href = await page.locator('link[rel="icon"]').getAttribute('href');
    expect(href).toBeTruthy();
    const response = await page.request.get(new URL(href ?? '', page.url()).href);
    expect(response.headers()['content-type']).toMatch(/^image\//);
    await close();
  });
});
