import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { EnginePool } from '@inkling/scheduler';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { ModelNotFoundError, ShaderF16UnsupportedError } from '../src/index.js';
import { fakeWebLLM, useVirtualTime } from './helpers.js';

// Errors the worker (or the model cache) throws are worded there: the page only rebuilds them from
// the worker's messages, so an app's bundle carries none of their sentences.
const WORKER_ONLY = ['needs 16-bit float shaders', "is not in WebLLM's prebuilt list"];

async function bundled(file: string, names: string): Promise<string> {
  const entry = fileURLToPath(new URL(`../src/${file}`, import.meta.url));
  const result = await build({
    stdin: { contents: `import { ${names} } from ${JSON.stringify(entry)}; console.log(${names});`, resolveDir: '.', loader: 'js' },
    bundle: true,
    write: false,
    minify: true,
    format: 'esm',
    platform: 'browser',
    conditions: ['@inkling/source'],
    external: ['@mlc-ai/web-llm'],
    logLevel: 'error',
  });
  return result.outputFiles[0]!.text;
}

it("an app's webllmEngines carries none of the worker's error sentences; the worker carries them all", async () => {
  const page = await bundled('index.ts', 'webllmEngines');
  expect(page).toContain('ModelNotFoundError'); // rebuilt by class on the page
  expect(WORKER_ONLY.filter((words) => page.includes(words))).toEqual([]);
  const worker = await bundled('worker/hostWebLLM.ts', 'hostWebLLM');
  expect(WORKER_ONLY.filter((words) => worker.includes(words))).toEqual(WORKER_ONLY);
});

beforeEach(useVirtualTime);
afterEach(() => {
  vi.useRealTimers();
});

it('the page still gets their whole sentences, from the worker, on the errors it rebuilds', async () => {
  const unknown = fakeWebLLM({}, { appConfig: undefined, model: 'Nope-q4f32_1' });
  const missing = await new EnginePool({ createEngine: unknown.createEngine }).load().catch((e: unknown) => e);
  expect(missing).toBeInstanceOf(ModelNotFoundError);
  expect((missing as Error).message).toMatch(/^The model "Nope-q4f32_1" is not in WebLLM's prebuilt list .*appConfig\.model_list\.$/);
  const f16 = fakeWebLLM({}, { appConfig: undefined, model: 'Qwen2.5-0.5B-Instruct-q4f16_1-MLC' });
  const refused = await new EnginePool({ createEngine: f16.createEngine }).load().catch((e: unknown) => e);
  expect(refused).toBeInstanceOf(ShaderF16UnsupportedError);
  expect((refused as Error).message).toMatch(
    /needs 16-bit float shaders .* Load the f32 build instead: "Qwen2\.5-0\.5B-Instruct-q4f32_1-MLC"\.$/,
  );
  expect(Object.keys(refused as object)).toEqual(expect.arrayContaining(['kind', 'device', 'model', 'suggestion']));
});
