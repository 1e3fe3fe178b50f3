import { wllamaEngines, type WllamaEnginesOptions } from '@inkling/wllama';
import wasmUrl from '@wllama/wllama/esm/wasm/wllama.wasm?url';
import { TEST_MODELS } from './testModels.js';

/** The wasm file, served by Vite from node_modules. */
export { wasmUrl };

/** The URL the suite's server gives a generated model. */
export function modelUrl(name: keyof typeof TEST_MODELS): string {
  return `/${TEST_MODELS[name].file}`;
}

/**
 * `wllamaEngines` on a generated model, one thread, a fixed seed; the file is
 * fetched into memory on every load (`storage: false`), so a test's progress
 * does not depend on what an earlier test stored. `storage.test.ts` tests the store.
 */
export function testEngines(name: keyof typeof TEST_MODELS = 'chat', options: Partial<WllamaEnginesOptions> = {}) {
  return wllamaEngines({ model: modelUrl(name), wasmUrl, seed: 7, embeddings: name === 'embed', storage: false, ...options });
}
