import { describe, expect, it } from 'vitest';
import { WasmUnsupportedError, supportsWasm64, wllamaEngines } from '../src/index.js';

// Node 20's WebAssembly has no 64-bit memory (Chromium's has: the browser suite loads engines).
describe.runIf(!supportsWasm64())('where WebAssembly lacks 64-bit memory', () => {
  it('a load fails at once with WasmUnsupportedError, before fetching anything', async () => {
    let fetched = 0;
    const load = wllamaEngines({
      model: 'https://example.test/m.gguf',
      wasmUrl: '/w.wasm',
      fetch: async () => ((fetched += 1), new Response('')),
    })(0, () => {});
    await expect(load).rejects.toBeInstanceOf(WasmUnsupportedError);
    expect(fetched).toBe(0);
  });
});
