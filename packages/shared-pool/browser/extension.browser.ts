import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ChatJobSpec } from '@inkling/scheduler';
import { type BrowserContext, type CDPSession, type Page, type Worker, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM, chromiumFlags } from '../../../e2e/support/chromiumFlags.js';
// By path: this file runs in Node, outside the bundles' resolve conditions.
import { makeTinyGguf } from '../../wllama/src/testing/index.js';
import type { BackgroundTestApi } from './extension/background.js';
import { buildExtension } from './extension/buildExtension.js';
import type { ClientTestApi as ContentTestApi } from './extension/clientTestApi.js';
import { WLLAMA_MODEL_FILE } from './scene.js';

// A real Manifest V3 extension built from the package's extension entry (esbuild bundles of the
// service worker, the offscreen document and a content script), loaded in headless Chromium, on
// fake engines: two tabs of a local page are its clients.

declare global {
  var inklingBackground: BackgroundTestApi;
  var inklingClient: ContentTestApi;
}

// Under dist/ (ignored; vite's build of the other pages empties it first).
const EXTENSION = fileURLToPath(new URL('./dist/extension/', import.meta.url));
let context: BrowserContext;
let server: Server;
let pageUrl: string;
let profile: string;

/** Launches Chromium with only `extension` loaded, in a fresh profile (extensions need a persistent context). */
export async function launchWithExtension(extension: string): Promise<{ context: BrowserContext; profile: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'inkling-ext-'));
  const launched = await chromium.launchPersistentContext(dir, {
    executablePath: CHROMIUM,
    headless: true,
    args: [...chromiumFlags(), `--disable-extensions-except=${extension}`, `--load-extension=${extension}`],
  });
  return { context: launched, profile: dir };
}

/** A local page for the content script to run in. */
export async function servePage(): Promise<{ server: Server; url: string }> {
  const served = createServer((_request, response) => {
    response.setHeader('content-type', 'text/html; charset=utf-8');
    response.end('<!doctype html><title>A page</title><textarea></textarea>');
  });
  await new Promise<void>((resolve) => served.listen(0, '127.0.0.1', resolve));
  return { server: served, url: `http://127.0.0.1:${(served.address() as AddressInfo).port}/` };
}

/** Calls the content script's test API in `page` (it lives in its own world: window messages carry the call). */
export function content<K extends keyof ContentTestApi>(
  page: Page,
  cmd: K,
  ...args: Parameters<ContentTestApi[K]>
): Promise<Awaited<ReturnType<ContentTestApi[K]>>> {
  return page.evaluate(
    ([name, list]) =>
      new Promise<unknown>((resolve, reject) => {
        const id = Math.random();
        const onReply = (event: MessageEvent) => {
          const data = event.data as { from?: string; id?: number; result?: unknown; error?: string };
          if (data?.from !== 'inkling-content' || data.id !== id) return;
          removeEventListener('message', onReply);
          if (data.error === undefined) resolve(data.result);
          else reject(new Error(data.error));
        };
        addEventListener('message', onReply);
        window.postMessage({ to: 'inkling-content', id, cmd: name, args: list }, '*');
      }),
    [cmd, args] as const,
  ) as Promise<Awaited<ReturnType<ContentTestApi[K]>>>;
}

/** The extension's service worker, started again if it was stopped (a worker handle goes stale then). */
async function serviceWorker(): Promise<Worker> {
  const live = context.serviceWorkers().at(-1);
  if (live) {
    const alive = await live.evaluate(() => 'inklingBackground' in globalThis).catch(() => false);
    if (alive) return live;
  }
  return context.waitForEvent('serviceworker', { timeout: 10_000 });
}

const say = (text: string) => [{ role: 'user' as const, content: text }];
const GHOST: Omit<ChatJobSpec, 'onChunk'> = {
  priority: 'interactive',
  session: 'ghost',
  params: { messages: say('ghost: Dear team, the') },
};
const BATCH = (n: number): Omit<ChatJobSpec, 'onChunk'> => ({
  task: 'page',
  preemptible: true,
  params: { messages: say(`translate item ${n}`) },
});

/** Waits until the content script in `page` sees one of its own jobs running with `tokens` tokens. */
async function streaming(page: Page, tokens = 2): Promise<void> {
  const until = Date.now() + 10_000;
  while (Date.now() < until) {
    const [snapshot, id] = [await content(page, 'snapshot'), await content(page, 'clientId')];
    if (snapshot.jobs.some((j) => j.owner === id && j.state === 'running' && j.tokens >= tokens)) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`no job of this tab streamed: ${JSON.stringify(await content(page, 'snapshot'))}`);
}

/** Opens a tab of the local page in the first tab's window (window.open), so the two share focus as browser tabs do. */
async function openTab(opener?: Page): Promise<Page> {
  let page: Page;
  if (opener) {
    [page] = await Promise.all([context.waitForEvent('page'), opener.evaluate((url) => void window.open(url), pageUrl)]);
  } else {
    page = context.pages()[0] ?? (await context.newPage());
    await page.goto(pageUrl);
  }
  page.on('pageerror', (error) => console.error('page error (extension):', error));
  await page.waitForFunction(() => document.documentElement.dataset.inklingContent === 'ready');
  return page;
}

/**
 * Lets focus follow the active tab, as in a real window: playwright emulates focus in every page
 * (each says document.hasFocus()), so that is turned off here, through the DevTools protocol.
 */
async function realFocus(page: Page): Promise<CDPSession> {
  const session = await context.newCDPSession(page);
  await session.send('Emulation.setFocusEmulationEnabled', { enabled: false });
  return session;
}

function report(line: string): void {
  process.stdout.write(`${line}\n`);
}

beforeAll(async () => {
  const startedAt = Date.now();
  await buildExtension(EXTENSION, 'offscreen.ts');
  ({ server, url: pageUrl } = await servePage());
  ({ context, profile } = await launchWithExtension(EXTENSION));
  await serviceWorker();
  report(`[extension] built and loaded in ${Date.now() - startedAt} ms`);
});

afterAll(async () => {
  await context?.close();
  server?.close();
  if (profile) rmSync(profile, { recursive: true, force: true });
});

describe('the pool in a real MV3 extension (fake engines)', () => {
  let a: Page;
  let b: Page;

  it('the fake chrome of the unit tests calls only what the real one has, in each context', async () => {
    a = await openTab();
    expect(await content(a, 'missingCalls')).toEqual([]);
    expect(await (await serviceWorker()).evaluate(() => inklingBackground.missingCalls())).toEqual([]);
  });

  it('two tabs share one offscreen document and one engine build', async () => {
    b = await openTab(a);
    await realFocus(a);
    await realFocus(b);
    expect(await Promise.all([content(a, 'load'), content(b, 'load')])).toEqual(['ready', 'ready']);
    const worker = await serviceWorker();
    expect(await worker.evaluate(() => inklingBackground.offscreenDocuments())).toBe(1);
    const offscreen = await content(a, 'offscreen');
    expect(offscreen.builds).toBe(1);
    expect(offscreen.missing).toEqual([]);
    // The document was made on the first client's request and said it listened before they connected.
    for (const page of [a, b]) expect(await content(page, 'counts')).toEqual({ connects: 1, ensures: 1 });
    expect(await content(a, 'clientId')).toMatch(/^tab-\d+$/);
  });

  it("a content script sees another site's jobs only as counts per band: never their ids, tasks or error text", async () => {
    await content(a, 'watch');
    await content(b, 'failNext', 'card 4111 1111 1111 1111 was declined');
    await content(b, 'start', 'secret-pay', { task: 'secret-task', params: { messages: say('pay') } });
    expect(await content(b, 'outcome', 'secret-pay')).toMatchObject({ status: 'error' });
    await content(b, 'start', 'secret-batch', { ...BATCH(7), session: 'secret-session' });
    await streaming(b);
    const mine = await content(b, 'snapshot');
    expect(mine.recent.find((r) => r.error?.includes('4111'))).toBeDefined();
    const theirs = await content(a, 'snapshot');
    expect(theirs.jobs).toEqual([]);
    // One live job of the other tab, in the band its presence gave it.
    expect(Object.values(theirs.others ?? {}).reduce((n, count) => n + count, 0)).toBe(1);
    const seen = await content(a, 'seen');
    expect(seen.length).toBeGreaterThan(0);
    for (const secret of ['4111', 'secret', await content(b, 'clientId')]) expect(seen).not.toContain(secret);
    expect(await content(b, 'outcome', 'secret-batch')).toMatchObject({ status: 'done' });
  });

  it("the focused tab's ghost text preempts a background tab's batch; from the unfocused tab it does not", async () => {
    await a.bringToFront();
    // Presence as the content scripts read it from their own documents.
    expect(await content(a, 'presence')).toEqual({ visible: true, focused: true });
    expect(await content(b, 'presence')).toEqual({ visible: true, focused: false });
    content(b, 'start', 'batch-1', BATCH(1));
    await streaming(b);
    await content(a, 'start', 'ghost-1', GHOST);
    expect(await content(a, 'outcome', 'ghost-1')).toMatchObject({ status: 'done', text: 'w0 w1 w2 w3 w4 w5' });
    const preempted = await content(b, 'outcome', 'batch-1');
    expect(preempted.status).toBe('preempted');
    expect(preempted.text).toMatch(/^w0 w1/);

    // The other way round: B in front, so A is not focused and its ghost text ranks 'high', which waits.
    await b.bringToFront();
    expect(await content(a, 'presence')).toEqual({ visible: true, focused: false });
    expect(await content(b, 'presence')).toEqual({ visible: true, focused: true });
    await content(b, 'start', 'batch-2', BATCH(2));
    await streaming(b);
    await content(a, 'start', 'ghost-2', GHOST);
    expect(await content(b, 'outcome', 'batch-2')).toMatchObject({ status: 'done' });
    expect(await content(a, 'outcome', 'ghost-2')).toMatchObject({ status: 'done', text: 'w0 w1 w2 w3 w4 w5' });
    await a.bringToFront();
  });

  it('a popup counts as focused while open (its document need not have focus), and its ghost text preempts a background tab', async () => {
    const worker = await serviceWorker();
    const popup = await context.newPage();
    await popup.goto(new URL('popup.html', worker.url()).href);
    await popup.waitForFunction(() => 'inklingClient' in globalThis);
    await realFocus(popup);
    await a.bringToFront();
    expect(await popup.evaluate(() => inklingClient.hasFocus())).toBe(false);
    expect(await popup.evaluate(() => inklingClient.presence())).toEqual({ visible: true, focused: true });
    expect(await popup.evaluate(() => inklingClient.load())).toBe('ready');
    content(b, 'start', 'batch-popup', BATCH(6));
    await streaming(b);
    await popup.evaluate((spec) => inklingClient.start('ghost', spec), GHOST);
    expect(await popup.evaluate(() => inklingClient.outcome('ghost'))).toMatchObject({ status: 'done', text: 'w0 w1 w2 w3 w4 w5' });
    expect((await content(b, 'outcome', 'batch-popup')).status).toBe('preempted');
    expect(await content(a, 'offscreen')).toMatchObject({ builds: 1 });
    await popup.close();
  });

  it('the offscreen document closed mid-stream: live jobs end HostLostError with their text, a new document comes on the next request, queued jobs finish, few connects', async () => {
    const before = await content(a, 'counts');
    const firstDocument = (await content(a, 'offscreen')).startedAt;
    await content(a, 'start', 'live', BATCH(3));
    await content(a, 'start', 'queued', BATCH(4));
    await streaming(a, 3);
    const closedAt = Date.now();
    await (await serviceWorker()).evaluate(() => inklingBackground.closeOffscreen());
    const lost = await content(a, 'outcome', 'live');
    expect(lost).toMatchObject({ status: 'error', error: { name: 'HostLostError', retryable: true } });
    expect(lost.text).toMatch(/^w0 w1 w2/);
    expect(await content(a, 'outcome', 'queued')).toMatchObject({ status: 'done', error: null });
    const doneMs = Date.now() - closedAt;
    expect(await (await serviceWorker()).evaluate(() => inklingBackground.offscreenDocuments())).toBe(1);
    const second = await content(a, 'offscreen');
    expect(second.startedAt).toBeGreaterThan(firstDocument);
    expect(second.builds).toBe(1);
    const after = await content(a, 'counts');
    const connects = after.connects - before.connects;
    report(
      `[extension] document closed: ${connects} connects from the tab until a new document served it; queued job done ${doneMs} ms after the close`,
    );
    expect(connects).toBeGreaterThanOrEqual(1);
    expect(connects).toBeLessThanOrEqual(3);
    // The other tab lost its document too; its next job finds the new one.
    await content(b, 'start', 'after-loss', GHOST);
    expect(await content(b, 'outcome', 'after-loss')).toMatchObject({ status: 'done' });
    expect(await content(b, 'counts')).toMatchObject({ connects: expect.any(Number) });
    expect((await content(b, 'counts')).connects - 1).toBeLessThanOrEqual(3);
  });

  it('the service worker stopped mid-stream and started again: nothing lost', async () => {
    const documentBefore = (await content(a, 'offscreen')).startedAt;
    await content(a, 'start', 'through-stop', BATCH(5));
    await streaming(a);
    const session = await context.newCDPSession(a);
    const versions = new Map<string, string>();
    session.on('ServiceWorker.workerVersionUpdated', (event) => {
      for (const version of event.versions)
        if (version.scriptURL.endsWith('/background.js')) versions.set(version.versionId, version.runningStatus);
    });
    await session.send('ServiceWorker.enable');
    const until = Date.now() + 5000;
    while (![...versions.values()].includes('running') && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 20));
    const [versionId] = [...versions.keys()];
    expect(versionId).toBeDefined();
    await session.send('ServiceWorker.stopWorker', { versionId: versionId! });
    while (versions.get(versionId!) !== 'stopped' && Date.now() < until + 5000) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(versions.get(versionId!)).toBe('stopped');
    // The stream goes on (content script to document); a new tab's request starts the worker again.
    expect(await content(a, 'outcome', 'through-stop')).toMatchObject({ status: 'done', error: null });
    const c = await openTab(a);
    expect(await content(c, 'load')).toBe('ready');
    await content(c, 'start', 'ghost', GHOST);
    expect(await content(c, 'outcome', 'ghost')).toMatchObject({ status: 'done' });
    expect(await content(c, 'counts')).toEqual({ connects: 1, ensures: 1 });
    expect(versions.get(versionId!)).toBe('running');
    const offscreen = await content(c, 'offscreen');
    expect(offscreen.startedAt).toBe(documentBefore);
    expect(offscreen.builds).toBe(1);
    expect(await (await serviceWorker()).evaluate(() => inklingBackground.offscreenDocuments())).toBe(1);
    await session.detach();
    await c.close();
  });

  it("two ensureOffscreen calls at once both succeed (the README's old one: the second rejects)", async () => {
    const worker = await serviceWorker();
    const old = await worker.evaluate(async () => {
      await inklingBackground.closeOffscreen();
      const settled = await Promise.allSettled([inklingBackground.naiveEnsureOffscreen(), inklingBackground.naiveEnsureOffscreen()]);
      return settled.map((s) => (s.status === 'fulfilled' ? 'ok' : String((s.reason as Error).message)));
    });
    expect(old).toContainEqual(expect.stringMatching(/single offscreen document/i));
    const now = await worker.evaluate(async () => {
      await inklingBackground.closeOffscreen();
      const settled = await Promise.allSettled([inklingBackground.ensureOffscreen(), inklingBackground.ensureOffscreen()]);
      return { settled: settled.map((s) => s.status), documents: await inklingBackground.offscreenDocuments() };
    });
    expect(now).toEqual({ settled: ['fulfilled', 'fulfilled'], documents: 1 });
  });
});

describe('the pool in a real MV3 extension (wllama in the offscreen document)', () => {
  it("answers a content script's ghost text from the generated test model", async () => {
    const dir = fileURLToPath(new URL('./dist/extension-wllama/', import.meta.url));
    await buildExtension(dir, 'offscreenWllama.ts');
    writeFileSync(join(dir, WLLAMA_MODEL_FILE), makeTinyGguf({ seed: 1 }));
    const launched = await launchWithExtension(dir);
    try {
      const page = launched.context.pages()[0] ?? (await launched.context.newPage());
      const errors: string[] = [];
      launched.context.on('weberror', (error) => errors.push(String(error.error())));
      await page.goto(pageUrl);
      await page.waitForFunction(() => document.documentElement.dataset.inklingContent === 'ready');
      const loadedAt = Date.now();
      expect(await content(page, 'load')).toBe('ready');
      const loadMs = Date.now() - loadedAt;
      await content(page, 'start', 'ghost', { ...GHOST, params: { messages: say('Dear team, the'), max_tokens: 8 } });
      const ghost = await content(page, 'outcome', 'ghost');
      expect(ghost).toMatchObject({ status: 'done', error: null });
      expect(ghost.text.length).toBeGreaterThan(0);
      expect(ghost.chunks).toBeGreaterThan(1);
      const offscreen = (await content(page, 'offscreen')) as { builds: number; workers?: number };
      expect(offscreen).toMatchObject({ builds: 1, workers: 1 });
      report(
        `[extension, wllama] model ready ${loadMs} ms after the content script's load(); ghost text "${ghost.text}" (${ghost.chunks} chunks, first after ${ghost.firstTokenMs?.toFixed(0)} ms)`,
      );
      expect(errors).toEqual([]);
    } finally {
      await launched.context.close();
      rmSync(launched.profile, { recursive: true, force: true });
    }
  });
});
