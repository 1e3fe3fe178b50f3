import { type BuiltInAIGlobals, BrowserManagedModelError, browserAIModelStorage } from '@inkling/browser-ai';
import { createFakeBuiltInAI } from '@inkling/browser-ai/testing';
import { ModelManager } from '@inkling/react';
import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';

// The browser's own models through the ModelStorage shape: against this Chromium's real APIs
// (offline, no model on disk: the Prompt API and the detector 'unavailable', en→fr
// 'downloadable'), and on the fake (checked against the real interfaces in realChromium.test.ts)
// for a model the browser has.

afterEach(() => cleanup());

const real = globalThis as unknown as BuiltInAIGlobals;

describe('browserAIModelStorage', () => {
  it("on this Chromium's real answers lists nothing (none of its models is on this disk), and asks nothing to download", async () => {
    expect(await real.LanguageModel!.availability()).toBe('unavailable');
    expect(await real.Translator!.availability({ sourceLanguage: 'en', targetLanguage: 'fr' })).toBe('downloadable');
    const state = await browserAIModelStorage({ translations: [{ from: 'en', to: 'fr' }] }).read();
    expect(state.models).toEqual([]);
    expect(state).toMatchObject({ room: undefined, persisted: undefined });
    expect(typeof (await browserAIModelStorage().persist())).toBe('boolean');
    await expect(browserAIModelStorage().delete('LanguageModel')).rejects.toBeInstanceOf(BrowserManagedModelError);
  });

  it('<ModelManager> shows a built-in model with its size as the browser’s to decide, and where to manage it instead of Delete', async () => {
    const fake = createFakeBuiltInAI({ prompt: 'available', detector: 'downloading', translation: 'downloadable' });
    const storage = browserAIModelStorage({ globals: fake.globals, translations: [{ from: 'en', to: 'de' }] });
    render(<ModelManager storage={storage} />);
    const items = await screen.findAllByRole('listitem');
    expect(items).toHaveLength(2);
    const [prompt, detector] = items as [HTMLElement, HTMLElement];
    expect(prompt.dataset.complete).toBe('true');
    expect(prompt.textContent).toContain("Chrome's built-in model (Prompt API)");
    expect(prompt.textContent).toContain('Size decided by the browser');
    expect(prompt.textContent).toContain('chrome://on-device-internals');
    expect(within(prompt).queryByRole('button')).toBeNull();
    expect(detector.dataset.complete).toBe('false');
    expect(detector.textContent).toContain('Being downloaded by the browser');
    // Nothing here can be deleted: no Delete all either; and no "Keep them", which would not keep them.
    expect(screen.queryByRole('button')).toBeNull();
    expect(screen.queryByText(/used, .* free/)).toBeNull();
    expect(fake.stats.downloads).toBe(0);
  });
});
