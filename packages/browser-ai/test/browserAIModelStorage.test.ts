import { type StorageManagerLike } from '@inkling/scheduler/storage';
import { describe, expect, it } from 'vitest';
import { BrowserManagedModelError, browserAIModelStorage } from '../src/index.js';
import { createFakeBuiltInAI } from '../src/testing/index.js';

// The built-in models through the ModelStorage shape, on the fake APIs (Chromium's real answers:
// tests/browser-ai/test/realChromium.test.ts).

const storage: StorageManagerLike = {
  estimate: async () => ({ usage: 5_000_000, quota: 80_000_000 }),
  persisted: async () => false,
  persist: async () => true,
};

describe('browserAIModelStorage', () => {
  it("lists the models the browser has ('available': complete; 'downloading': partial) with unknown bytes, and leaves out the others", async () => {
    const { globals, stats } = createFakeBuiltInAI({
      prompt: 'available',
      detector: 'downloadable',
      translation: (from, to) => (to === 'de' ? 'downloading' : to === 'fr' ? 'available' : 'unavailable'),
    });
    const built = browserAIModelStorage({
      globals,
      storage,
      translations: [
        { from: 'en', to: 'fr' },
        { from: 'en', to: 'de' },
        { from: 'en', to: 'ja' },
      ],
    });
    const state = await built.read();
    expect(state.models.map((m) => [m.model, m.complete, m.bytes, m.totalBytes])).toEqual([
      ['LanguageModel', true, undefined, undefined],
      ['Translator:en-fr', true, undefined, undefined],
      ['Translator:en-de', false, undefined, undefined],
    ]);
    expect(state.models[0]).toMatchObject({
      label: "Chrome's built-in model (Prompt API)",
      cannotDelete: expect.stringContaining('chrome://on-device-internals'),
    });
    // Outside the origin's quota and persistence: not reported as if they were in it.
    expect(state.room).toBeUndefined();
    expect(state.persisted).toBeUndefined();
    // persist() asks for the origin's, as the other storages do.
    expect(await built.persist()).toBe(true);
    // Nothing downloaded to find out.
    expect(stats.downloads).toBe(0);
    expect(stats.sessionsCreated).toBe(0);
  });

  it('delete and deleteAll reject with BrowserManagedModelError, saying where the person manages them', async () => {
    const built = browserAIModelStorage({ globals: createFakeBuiltInAI().globals, storage });
    const error = await built.delete('LanguageModel').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BrowserManagedModelError);
    expect(error).toMatchObject({ kind: 'refused', device: 'browser', model: 'LanguageModel' });
    expect((error as Error).message).toMatch(/a page cannot delete it.*chrome:\/\/on-device-internals/);
    await expect(built.deleteAll()).rejects.toBeInstanceOf(BrowserManagedModelError);
  });

  it('where the APIs are missing, nothing is listed and nothing throws', async () => {
    const state = await browserAIModelStorage({ globals: {}, storage: {} }).read();
    expect(state).toEqual({ models: [], room: undefined, persisted: undefined });
    await expect(browserAIModelStorage({ globals: {} }).deleteAll()).resolves.toBeUndefined();
  });
});
