import { InvalidOptionError } from '@inkling/scheduler';
import { fakeEngines } from '@inkling/scheduler/testing';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  HostLostError,
  HostUnavailableError,
  extensionBackground,
  extensionPoolClient,
  extensionPresence,
  hostOffscreenPool,
} from '../src/extension/index.js';
import type { HostOffscreenPoolOptions } from '../src/extension/index.js';
import { fakeExtension } from './fakeChrome.js';
import { chat, run, useFakeClock } from './helpers.js';

beforeEach(useFakeClock);
afterEach(() => vi.useRealTimers());

const focused = { get: () => ({ visible: true, focused: true }), subscribe: () => () => {} };

/** An extension whose offscreen document hosts fake engines; `builds` counts engine builds across documents. */
function scene(engine = { reply: 'a b c d e f g h', tokenMs: 10 }, view?: HostOffscreenPoolOptions['view']) {
  const builds = { count: 0 };
  const world = fakeExtension({
    setTimeout: (callback, ms) => setTimeout(callback, ms),
    offscreenScript: (chrome) => {
      const engines = fakeEngines(engine);
      hostOffscreenPool({
        chrome,
        size: 1,
        view,
        createEngine: (index, onProgress, options) => {
          builds.count += 1;
          return engines(index, onProgress, options);
        },
      });
    },
  });
  const background = extensionBackground({ chrome: world.background });
  const tab = () => extensionPoolClient({ chrome: world.contentScript(), presence: focused });
  return { world, background, builds, tab };
}

describe('the extension entry', () => {
  it("shows a content script only its own jobs, and the full view to the extension's page the host chose", async () => {
    const { world, tab } = scene(undefined, (sender) => (sender?.tab ? 'own' : 'all'));
    const site = tab();
    const other = tab();
    const inspector = extensionPoolClient({ chrome: world.page('popup'), presence: focused });
    await Promise.all([run(300), site.load(), other.load(), inspector.load()]);
    void site.submit(chat('private', { id: 'site-job' }));
    await run(30);
    expect(site.getSnapshot().jobs.map((j) => j.id)).toEqual(['site-job']);
    expect(other.getSnapshot().jobs).toEqual([]);
    expect(other.getSnapshot().others).toEqual({ interactive: 0, high: 0, normal: 1, low: 0 });
    expect(inspector.getSnapshot().jobs.map((j) => j.id)).toEqual(['tab-1|site-job']);
    expect(inspector.getSnapshot().others).toBeUndefined();
  });

  it('two ensureOffscreen calls at once both succeed and make one document', async () => {
    const { world, background } = scene();
    const both = Promise.all([background.ensureOffscreen(), background.ensureOffscreen()]);
    await run(200);
    await expect(both).resolves.toEqual([undefined, undefined]);
    expect(world.counts.createDocument).toBe(1);
    // Later calls find it listening, and make nothing.
    const again = background.ensureOffscreen();
    await run(20);
    await expect(again).resolves.toBeUndefined();
    expect(world.counts.createDocument).toBe(1);
  });

  it('a client connects once the new document listens (no failed port in the startup window), and two tabs share one engine', async () => {
    const { world, builds, tab } = scene();
    const a = tab();
    const b = tab();
    await Promise.all([run(300), a.load(), b.load()]);
    expect(world.counts.createDocument).toBe(1);
    expect(world.counts.refusedConnects).toBe(0);
    expect(world.counts.connects).toBe(2);
    expect(builds.count).toBe(1);
    const job = b.submit(chat('hi'));
    await run(200);
    expect(await job).toMatchObject({ status: 'done', text: 'a b c d e f g h' });
    expect(a.getSnapshot().jobs).toEqual([]);
    expect(b.getSnapshot().recent.at(-1)?.owner).toBe('tab-2');
  });

  it('the document closed mid-stream: the live job ends HostLostError with its text, a new document comes on request, queued work finishes, few connects', async () => {
    const { world, builds, tab } = scene();
    const client = tab();
    await Promise.all([run(300), client.load()]);
    const live = client.submit(chat('first', { task: 'page', onChunk: () => {} }));
    const queued = client.submit(chat('second', { task: 'page' }));
    await run(40);
    const before = world.counts.connects;
    await world.background.offscreen!.closeDocument!();
    await run(10);
    const lost = await live;
    expect(lost.error).toBeInstanceOf(HostLostError);
    expect(lost.text).toMatch(/^a b/);
    await run(500);
    expect(await queued).toMatchObject({ status: 'done', text: 'a b c d e f g h' });
    expect(world.counts.createDocument).toBe(2);
    expect(builds.count).toBe(2);
    expect(world.counts.connects - before).toBeLessThanOrEqual(2);
    expect(client.hostLosses).toBe(1);
  });

  it('a service worker stopped and started again loses nothing: the pool lives in the document', async () => {
    const { world, builds, tab } = scene();
    const a = tab();
    await Promise.all([run(300), a.load()]);
    world.stopWorker();
    const running = a.submit(chat('through the stop', { onChunk: () => {} }));
    await run(20);
    world.restartWorker();
    const restarted = extensionBackground({ chrome: world.background }); // the worker's script runs again
    const b = tab();
    await Promise.all([run(300), b.load()]);
    expect(await running).toMatchObject({ status: 'done', text: 'a b c d e f g h' });
    expect(world.counts.createDocument).toBe(1);
    expect(builds.count).toBe(1);
    restarted.stop();
  });

  it('no document can be made: the client tries a handful of times, then ends waiting work with HostUnavailableError saying why', async () => {
    const world = fakeExtension({ setTimeout: (callback, ms) => setTimeout(callback, ms), offscreenScript: () => {} });
    const chrome = world.background;
    extensionBackground({
      chrome: { runtime: chrome.runtime, offscreen: { createDocument: () => Promise.reject(new Error('Page failed to load.')) } },
    });
    const client = extensionPoolClient({
      chrome: world.contentScript(),
      presence: focused,
      reconnect: { giveUpAfterMs: 3000, random: () => 1 },
    });
    const job = client.submit(chat('hi'));
    await run(5000, 20);
    const result = await job;
    expect(result.error).toBeInstanceOf(HostUnavailableError);
    expect(result.error?.message).toContain(
      'the endpoint closed (no offscreen document (Could not create the offscreen document offscreen.html: Page failed to load))',
    );
    // Pauses of 100, 200, 400, 800, 1600 ms (the jitter at its top): 6 tries in the 3 s bound (was ~800 a second).
    expect(world.counts.connects).toBe(6);
  });

  it('a document whose script never calls hostOffscreenPool: ensureOffscreen rejects after readyTimeoutMs with advice', async () => {
    const world = fakeExtension({ setTimeout: (callback, ms) => setTimeout(callback, ms), offscreenScript: () => {} });
    const background = extensionBackground({ chrome: world.background, readyTimeoutMs: 1000 });
    const made = background.ensureOffscreen().catch((error: unknown) => error);
    await run(1100);
    const error = await made;
    expect(error).toBeInstanceOf(HostUnavailableError);
    expect((error as Error).message).toMatch(/did not say it was ready within 1000 ms: check that its script calls hostOffscreenPool/);
  });

  it('refuses bad options with typed errors, and says where chrome.runtime is missing', () => {
    expect(() => extensionPoolClient()).toThrow(InvalidOptionError);
    expect(() => extensionPoolClient()).toThrow(/runs in a browser extension/);
    const world = fakeExtension({ setTimeout, offscreenScript: () => {} });
    expect(() => extensionBackground({ chrome: world.background, url: '' })).toThrow(/"url"/);
    expect(() => extensionBackground({ chrome: world.background, readyTimeoutMs: -5 })).toThrow(/readyTimeoutMs/);
    expect(() => extensionBackground({ chrome: world.background, reasons: [] })).toThrow(
      `extensionBackground "reasons" must be a non-empty array of chrome.offscreen.Reason values, e.g. ['WORKERS']; it got [].`,
    );
  });
});

const doc = (visibilityState: string, focus: boolean) => ({
  visibilityState,
  hasFocus: () => focus,
  addEventListener: () => {},
  removeEventListener: () => {},
});

describe('extensionPresence', () => {
  it('a content script follows its tab; an extension page counts as focused while visible', () => {
    const page = { protocol: 'https:' };
    const extensionPage = { protocol: 'chrome-extension:' };
    expect(extensionPresence(doc('visible', false), undefined, page).get()).toEqual({ visible: true, focused: false });
    expect(extensionPresence(doc('visible', true), undefined, page).get()).toEqual({ visible: true, focused: true });
    expect(extensionPresence(doc('hidden', false), undefined, page).get()).toEqual({ visible: false, focused: false });
    expect(extensionPresence(doc('visible', false), undefined, extensionPage).get()).toEqual({ visible: true, focused: true });
    expect(extensionPresence(doc('hidden', false), undefined, extensionPage).get()).toEqual({ visible: false, focused: false });
  });
});
