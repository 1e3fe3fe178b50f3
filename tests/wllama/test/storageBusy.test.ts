import { type WllamaEngine, wllamaEngines, wllamaModelStorage } from '@inkling/wllama';
import { expect, it } from 'vitest';
import { wasmUrl } from './engines.js';
import { TEST_MODELS } from './testModels.js';

// What another tab is doing with a stored model, as the storage reads it from this browser's
// real Web Locks: a tab holding the model's lock is loading a whole copy, or downloading one that
// is not whole yet.

/** Holds the lock `name` until the returned release is called, as another tab's download would. */
async function hold(name: string): Promise<() => void> {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  await new Promise<void>((held) => void navigator.locks.request(name, () => (held(), released)));
  return release;
}

/** The store's folder (and lock) name of a model: the first 16 bytes of its URL's SHA-256, in hex. */
async function folderOf(url: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(url));
  return [...new Uint8Array(digest).slice(0, 16)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/** A model URL of its own, stored whole, or cut short at the fraction `cut`. */
async function storedCopy(cut?: number): Promise<string> {
  const key = `busy${Date.now().toString(36)}${cut ?? ''}`;
  await fetch(`/__models/config?key=${key}&ranges=1${cut === undefined ? '' : `&cut=${cut}`}`);
  const url = new URL(`/__models/${key}/${TEST_MODELS.chat.file}`, location.href).href;
  const engine = await wllamaEngines({ model: url, wasmUrl })(0, () => {}).catch(() => undefined);
  await (engine as WllamaEngine | undefined)?.unload();
  return url;
}

it('says a stored model is being downloaded or loaded while a tab holds its lock, and nothing once it is free', async () => {
  const storage = wllamaModelStorage();
  const find = async (url: string) => (await storage.read()).models.find((m) => m.model === url);
  for (const [url, busy] of [
    [await storedCopy(), 'loading'],
    [await storedCopy(0.4), 'downloading'],
  ] as const) {
    expect(await find(url)).toMatchObject({ complete: busy === 'loading' });
    expect((await find(url))?.busy).toBeUndefined();
    const release = await hold(`inkling-wllama-model:${await folderOf(url)}`);
    expect((await find(url))?.busy).toBe(busy);
    release();
    expect((await find(url))?.busy).toBeUndefined();
    await storage.delete(url);
  }
});
