import type { Browser, BrowserContext, Page, Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { screenshot } from './support/artifacts.js';
import { launchChromium } from './support/chromium.js';
import { NOWHERE } from './support/demoStates.js';
import { layoutShift, noteLayoutShift, sideways, watchLayoutShift } from './support/pageChecks.js';

// Each failure a person meets, with the failing answer held back 0.2, 1 and 3 s
// (an error that comes late is the one that used to push the page down): one
// message, in one place, the header's height unchanged, layout shift under 0.02.
// Nothing here is a person's input (no clicks or keys: the choice is a saved one,
// the server form is sent by script), so every shift counts.

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

const later = (ms: number) => (route: Route) => void setTimeout(() => void route.abort('internetdisconnected').catch(() => {}), ms);

interface Failure {
  name: string;
  browser: () => Browser;
  /** The saved engine choice the page starts with. */
  saved: object;
  /** Holds back the failing answer `ms`, then fails it (set up before the page opens). */
  fail: (context: BrowserContext, ms: number) => Promise<void>;
  /** What starts the failing work once the page is there; nothing where the saved choice loads by itself. */
  act?: (page: Page) => Promise<void>;
  /** Where the one message is. */
  message: string;
  /** The room kept for it, which it must not leave until a person opens its detail. */
  room: string;
}

const FAILURES: Failure[] = [
  {
    name: 'a failed WebLLM load (offline)',
    browser: () => withGpu,
    saved: { kind: 'webllm', model: 'SmolLM2-360M-Instruct-q4f32_1-MLC' },
    fail: async (context, ms) => {
      const demo = new URL(inject('demoUrl')).origin;
      await context.route((url) => url.origin !== demo, later(ms));
    },
    message: '.engine-status .inkling-model-load-error',
    room: '.engine-panel',
  },
  {
    name: 'a failed CPU model download',
    browser: () => noGpu,
    saved: { kind: 'cpu', model: 'SmolLM2-360M-Instruct-Q8_0', url: 'https://huggingface.co/x/y/resolve/main/model.gguf' },
    fail: async (context, ms) => void (await context.route(/huggingface\.co/, later(ms))),
    message: '.engine-status .inkling-model-load-error',
    room: '.engine-panel',
  },
  {
    name: 'a dead translation server',
    browser: () => noGpu,
    saved: { kind: 'simulated' },
    fail: async (context, ms) => void (await context.route(`${NOWHERE}/**`, later(ms))),
    act: async (page) => {
      await page.locator('.inkling-inspector[data-phase="ready"]').first().waitFor();
      await page.evaluate((baseURL) => {
        // oxlint-disable-next-line unicorn/consistent-function-scoping -- it runs in the page, where nothing outside exists.
        const set = (label: string, value: string) => {
          const field = [...document.querySelectorAll('label')].find((l) => l.textContent === label)?.control as
            | HTMLInputElement
            | HTMLSelectElement;
          const proto = field instanceof HTMLSelectElement ? HTMLSelectElement.prototype : HTMLInputElement.prototype;
          Object.getOwnPropertyDescriptor(proto, 'value')?.set?.call(field, value);
          field.dispatchEvent(new Event(field instanceof HTMLSelectElement ? 'change' : 'input', { bubbles: true }));
        };
        set('Runs on', 'server');
        return new Promise<void>((done) =>
          requestAnimationFrame(() => {
            set('Base URL', baseURL);
            set('Model on the server', 'some-model');
            requestAnimationFrame(() => {
              [...document.querySelectorAll('button')].find((b) => b.textContent === 'Use')?.click();
              done();
            });
          }),
        );
      }, NOWHERE);
    },
    message: '.translate .server-status[data-phase="error"]',
    room: '.translate .server-status-box',
  },
];

const DELAYS = [200, 1000, 3000];

describe.each(FAILURES)('$name', (failure) => {
  it.each(DELAYS)(
    'held back %i ms: one message in one place, the header as tall as before, layout shift under 0.02',
    async (ms) => {
      for (const width of [390, 1280]) {
        const context = await failure.browser().newContext({ viewport: { width, height: width < 600 ? 844 : 800 } });
        await context.addInitScript((saved) => localStorage.setItem('inkling-demo:engine', saved), JSON.stringify(failure.saved));
        await watchLayoutShift(context);
        await failure.fail(context, ms);
        const page = await context.newPage();
        const started = Date.now();
        await page.goto(`${inject('demoUrl')}/`);
        await page.locator('.app').waitFor();
        const before = await page.locator('.app-header').boundingBox();
        await failure.act?.(page);
        const message = page.locator(failure.message);
        await message.waitFor({ timeout: 30_000 });
        // The failure really came late (the held-back answer is what failed).
        expect(Date.now() - started).toBeGreaterThanOrEqual(ms);
        await page.waitForTimeout(300);
        const after = await page.locator('.app-header').boundingBox();
        expect({ width, header: after?.height }).toEqual({ width, header: before?.height });
        // One message: one alert on the page, and its words nowhere else.
        const alerts = await page
          .locator('[role="alert"]')
          .evaluateAll((nodes) => nodes.filter((n) => (n as HTMLElement).innerText.trim()).length);
        expect({ width, alerts }).toEqual({ width, alerts: 1 });
        const words = (await message.locator('p').first().innerText()).trim();
        const body = await page.locator('body').innerText();
        expect({ width, times: body.split(words).length - 1 }).toEqual({ width, times: 1 });
        // In a person's words: no package names, method calls or option names.
        expect(words).not.toMatch(/@inkling|@mlc-ai|\w+\(|baseURL|Error\b/);
        // The developer's detail is one click away, not on the page.
        expect(await message.locator('details').count()).toBe(1);
        expect(await message.locator('details').getAttribute('open')).toBeNull();
        const { total, shifts } = await layoutShift(page);
        noteLayoutShift(`${failure.name}, ${ms} ms late, ${width} px`, total);
        expect({ width, total: Math.min(total, 0.02), shifts }).toEqual({ width, total, shifts });
        const slug = failure.name.replace(/\W+/g, '-').replace(/^-|-$/g, '');
        if (ms === 1000) await screenshot(page, `error-${slug}-${width}`);
        // Inside the room kept for it: it covers nothing below (a phone's notice, the inspector's title).
        const [box, room] = [await message.boundingBox(), await page.locator(failure.room).boundingBox()];
        expect({
          width,
          over: Math.max(0, Math.round((box?.y ?? 0) + (box?.height ?? 0) - ((room?.y ?? 0) + (room?.height ?? 0)))),
        }).toEqual({ width, over: 0 });
        // The advice is whole: no sentence cut short.
        const cut = await message
          .locator('p')
          .first()
          .evaluate((p) => p.scrollHeight > p.clientHeight + 1 || p.scrollWidth > p.clientWidth + 1);
        expect({ width, cut }).toEqual({ width, cut: false });
        await message.locator('summary').click();
        if (ms === 1000) await screenshot(page, `error-${slug}-details-${width}`);
        // The opened detail stays inside its message (it pushes the message's end down, floating over nothing).
        const [opened, around] = [await message.locator('details').boundingBox(), await message.boundingBox()];
        const outside = Math.max(0, Math.round(opened!.y + opened!.height - (around!.y + around!.height)));
        expect({ width, outside }).toEqual({ width, outside: 0 });
        // Opening the detail moves nothing and stays inside the page.
        expect((await page.locator('.app-header').boundingBox())?.height).toBe(before?.height);
        expect(await sideways(page)).toMatchObject({ overflowing: [] });
        await context.close();
      }
    },
    90_000,
  );
});
