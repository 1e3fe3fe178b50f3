import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { ChatJobSpec } from '@inkling/scheduler';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../../../e2e/support/chromium.js';
import { serveStatic } from '../../../e2e/support/serveStatic.js';
// By path: this file runs in Node, outside the page's resolve conditions.
import { makeTinyGguf } from '../../wllama/src/testing/index.js';
import { WLLAMA_MODEL_FILE } from './scene.js';
import type { WllamaTestApi } from './wllamaTab.js';

// Real tabs on a real engine: three pages of one browser context share the tab-hosted pool
// (wllama starts its own Web Worker from a page, so a SharedWorker cannot host it), on a tiny
// random-weight GGUF model written into the served folder.

declare global {
  var inklingWllama: WllamaTestApi;
}

const DIST = fileURLToPath(new URL('./dist/', import.meta.url));
let browser: Browser;
let server: { url: string; close: () => Promise<void> };

beforeAll(async () => {
  writeFileSync(DIST + WLLAMA_MODEL_FILE, makeTinyGguf({ seed: 1 }));
  server = await serveStatic(DIST);
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

const say = (content: string) => [{ role: 'user' as const, content }];
const GHOST: Omit<ChatJobSpec, 'onChunk'> = {
  priority: 'interactive',
  session: 'ghost',
  params: { messages: say('Dear team, the'), max_tokens: 8 },
};
const TRANSLATION: Omit<ChatJobSpec, 'onChunk'> = {
  task: 'page',
  preemptible: true,
  params: { messages: say('Translate the whole page into French.'), max_tokens: 1500 },
};
const NOTE: Omit<ChatJobSpec, 'onChunk'> = {
  task: 'note',
  params: { messages: say('Write a short note about the weather.'), max_tokens: 12 },
};

/** Waits until `page` sees one of its own jobs running with at least `tokens` tokens. */
async function streaming(page: Page, tokens = 3): Promise<void> {
  await page
    .waitForFunction(
      (n) => inklingWllama.snapshot().jobs.some((j) => j.owner === inklingWllama.clientId() && j.state === 'running' && j.tokens >= n),
      tokens,
      {
        polling: 10,
        timeout: 15_000,
      },
    )
    .catch(async (error: unknown) => {
      throw new Error(`no job of this tab streamed: ${JSON.stringify(await page.evaluate(() => inklingWllama.snapshot()))}`, {
        cause: error,
      });
    });
}

/** Opens a tab of the wllama page and loads the pool in it; the first tab opened hosts. */
async function open(context: BrowserContext): Promise<Page> {
  const page = await context.newPage();
  page.on('pageerror', (error) => console.error('page error (wllama):', error));
  await page.goto(`${server.url}/wllama.html`);
  await page.waitForFunction(() => 'inklingWllama' in globalThis);
  expect(await page.evaluate(() => inklingWllama.load())).toBe('ready');
  return page;
}

/** Engine builds and Web Workers started, per tab. */
async function counts(pages: Page[]) {
  return Promise.all(pages.map((page) => page.evaluate(() => inklingWllama.counts())));
}

describe('three tabs sharing the tab-hosted pool on a real wllama engine', () => {
  it('loads the model once for three tabs, lets tab B preempt tab A, and moves to the next tab when the host closes', async () => {
    const context: BrowserContext = await browser.newContext();
    let modelFetches = 0;
    context.on('request', (request) => {
      if (request.url().endsWith(`/${WLLAMA_MODEL_FILE}`)) modelFetches += 1;
    });
    try {
      const host = await open(context);
      const a = await open(context);
      const b = await open(context);

      // One engine build, one wllama worker, one model fetch: in the first tab, for all three.
      expect(await counts([host, a, b])).toEqual([
        { builds: 1, workers: 1 },
        { builds: 0, workers: 0 },
        { builds: 0, workers: 0 },
      ]);
      expect(modelFetches).toBe(1);
      expect(await Promise.all([host, a, b].map((page) => page.evaluate(() => inklingWllama.isHost())))).toEqual([true, false, false]);

      // Tab A, hidden, translates; tab B's ghost text (focused) preempts it and streams.
      await a.evaluate(() => inklingWllama.setPresence({ visible: false, focused: false }));
      await a.evaluate((spec) => inklingWllama.start('page', spec), TRANSLATION);
      await streaming(a);
      await b.evaluate((spec) => inklingWllama.start('ghost', spec), GHOST);
      const ghost = await b.evaluate(() => inklingWllama.outcome('ghost'));
      expect(ghost).toMatchObject({ status: 'done', error: null });
      expect(ghost.text.length).toBeGreaterThan(0);
      expect(ghost.chunks).toBeGreaterThan(1);
      expect(ghost.streamed).toBe(ghost.text);
      const page = await a.evaluate(() => inklingWllama.outcome('page'));
      expect(page.status).toBe('preempted');
      expect(page.text.length).toBeGreaterThan(0);
      expect(page.streamed).toBe(page.text);
      process.stdout.write(
        `[wllama tabs] ghost text first token ${ghost.firstTokenMs?.toFixed(0)} ms under a translation (${ghost.chunks} chunks)\n`,
      );

      // The host closes while A translates and B's note waits: A's running job ends with the retryable
      // error keeping its text, B's queued one moves to the next host, which loads the model again.
      await a.evaluate((spec) => inklingWllama.start('again', spec), TRANSLATION);
      await streaming(a);
      await b.evaluate(() => inklingWllama.setPresence({ visible: true, focused: false }));
      await b.evaluate((spec) => inklingWllama.start('note', spec), NOTE);
      await b.waitForFunction(
        () => inklingWllama.snapshot().jobs.some((j) => j.owner === inklingWllama.clientId() && j.state === 'queued'),
        undefined,
        { polling: 10 },
      );
      const closedAt = Date.now();
      await host.close();
      const lost = await a.evaluate(() => inklingWllama.outcome('again'));
      expect(lost).toMatchObject({ status: 'error', error: { name: 'HostLostError', retryable: true } });
      expect(lost.text.length).toBeGreaterThan(0);
      const note = await b.evaluate(() => inklingWllama.outcome('note'));
      const movedMs = Date.now() - closedAt;
      expect(note).toMatchObject({ status: 'done', error: null });
      expect(note.text.length).toBeGreaterThan(0);
      expect(note.streamed).toBe(note.text);

      const after = await counts([a, b]);
      const hosts = await Promise.all([a, b].map((p) => p.evaluate(() => inklingWllama.isHost())));
      expect(hosts.filter(Boolean)).toHaveLength(1);
      const next = hosts.indexOf(true);
      expect(after[next]).toEqual({ builds: 1, workers: 1 });
      expect(after[1 - next]).toEqual({ builds: 0, workers: 0 });
      expect(modelFetches).toBe(2);

      // The pool works from both remaining tabs.
      for (const [key, tab] of [
        ['a2', a],
        ['b2', b],
      ] as const) {
        await tab.evaluate(({ spec, k }) => inklingWllama.start(k, spec), { spec: GHOST, k: key });
        expect(await tab.evaluate((k) => inklingWllama.outcome(k), key)).toMatchObject({ status: 'done', error: null });
      }
      process.stdout.write(
        `[wllama tabs] host tab closed: the queued note was done on the next host after ${movedMs} ms (model load included)\n`,
      );
    } finally {
      await context.close();
    }
  });
});
