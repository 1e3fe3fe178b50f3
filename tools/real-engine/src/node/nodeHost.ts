/**
 * Makes a Node thread look enough like a browser worker for WebLLM:
 * WebGPU from Dawn (npm `webgpu`'s `dawn.node`) as `navigator.gpu`, the
 * Cache API, `location`, and no `process.versions.node` (WebLLM's wasm glue
 * would otherwise take Node for a browser-less host and reach for fs).
 * Import WebLLM only after it has run.
 */
import { createRequire } from 'node:module';
import { installCachePolyfill } from './cachePolyfill.js';

/** Installs the browser globals WebLLM needs on this thread. `origin` is the model server's. */
export async function installNodeHost({ dawn, origin, toggles = [] }: { dawn: string; origin: string; toggles?: string[] }): Promise<void> {
  const { create, globals } = createRequire(import.meta.url)(dawn) as {
    create: (flags: string[]) => unknown;
    globals: Record<string, unknown>;
  };
  Object.assign(globalThis, globals);
  Object.defineProperty(globalThis, 'navigator', {
    value: { gpu: create(toggles), userAgent: 'node', languages: ['en-US'] },
    configurable: true,
  });
  Object.defineProperty(globalThis, 'location', { value: new URL(origin), configurable: true });
  installCachePolyfill();
  // Node's fetch loads lazily and reads process.versions.node when it does:
  // load it now, before that is hidden below.
  await fetch(origin).then(
    (response) => response.arrayBuffer(),
    () => undefined,
  );
  Object.defineProperty(process.versions, 'node', { value: undefined, configurable: true });
}
