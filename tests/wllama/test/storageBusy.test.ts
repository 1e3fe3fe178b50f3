import { type WllamaEngine, wllamaEngines, wllamaModelStorage } from '@inkling/wllama';
import { expect, it } from 'vitest';
import { wasmUrl } from './engines.js';
import { TEST_MODELS } from './testModels.js';

// What another tab is doing with a stored model, as the storage reads it from this browser's
// real Web Locks (a download holds the model's lock alone, loads share it).

/** Holds `name` in `mode` until the returned release is called. */
async function hold(name: string, mode: 'exclusive' | 'shared'): Promise<() => void> {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  await new Promise<void>((held) => void navigator.locks.request(name, { mode }, () => (held(), released)));
  return release;
}

/** The store's folder (and lock) name of a model: the first 16 bytes of its URL's SHA-256, in hex. */
async function folderOf(url: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(url));
  return [...new Uint8Array(digest).slice(0, 16)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

it('says a stored model is being downloaded or loaded while a tab holds its lock, and nothing once it is free', async () => {
  const key = `busy${Date.now().toString(36)}`;
  await fetch(`/__models/config?key=${key}&ranges=1`);
  const url = new URL(`/__models/${key}/${TEST_MODELS.chat.file}`, location.href).href;
  await ((await wllamaEngines({ model: url, wasmUrl })(0, () => {})) as WllamaEngine).unload();
  const storage = wllamaModelStorage();
  const busy = async () => (await storage.read()).models.find((m) => m.model === url)?.busy;
  expect(await busy()).toBeUndefined();
  const names = `inkling-wllama-model:${await folderOf(url)}`;
  let release = await hold(names, 'exclusive');
  expect(await busy()).toBe('downloading');
  release();
  release = await hold(names, 'shared');
  expect(await busy()).toBe('loading');
  release();
  expect(await busy()).toBeUndefined();
  await storage.delete(url);
});
