/**
 * `pnpm verify:real-engine --engine=wllama`: the same checks as the WebLLM run, on wllama
 * (llama.cpp in WebAssembly, on the CPU) with tiny random-weight GGUF models generated
 * here. Needs nothing from outside the npm registry; takes seconds.
 *
 * Environment: CHROMIUM (default /usr/bin/chromium), CHROMIUM_EXTRA_FLAGS.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { makeTinyGguf } from '@inkling/wllama/testing';
import { chromium } from 'playwright-core';
import { buildWllamaPage } from './build.js';
import { serve } from './serve.js';
import { WLLAMA_MODELS } from './wllamaModels.js';
import { chromiumFlags } from '../../../e2e/support/chromiumFlags.js';
import { exitWithResults, runCheckPage } from './checkPage.js';

const repo = resolve(import.meta.dirname, '../../..');
const work = join(repo, '.real-engine', 'wllama');
const browserPath = process.env.CHROMIUM ?? '/usr/bin/chromium';
if (!existsSync(browserPath)) {
  console.error(`No Chromium at ${browserPath}: install Debian's (apt-get install -y chromium) or set CHROMIUM.`);
  process.exit(2);
}
const wasmDir = dirname(createRequire(import.meta.url).resolve('@wllama/wllama/esm/wasm/wllama.wasm'));

const started = performance.now();
const stamp = () => `${((performance.now() - started) / 1000).toFixed(1).padStart(5)} s`;
mkdirSync(join(work, 'models'), { recursive: true });
for (const model of Object.values(WLLAMA_MODELS)) writeFileSync(join(work, 'models', model.file), makeTinyGguf(model.shape));
console.log(
  `${stamp()}  generated ${Object.values(WLLAMA_MODELS)
    .map((m) => m.file)
    .join(', ')} in ${work}/models`,
);
await buildWllamaPage(join(work, 'page'));
const { server, base } = await serve({ '/models/': join(work, 'models'), '/wasm/': wasmDir, '/': join(work, 'page') });
console.log(`${stamp()}  serving on ${base}; starting headless Chromium (wllama runs on the CPU: no GPU flags)`);

const browser = await chromium.launch({
  executablePath: browserPath,
  args: [...chromiumFlags(), ...(process.env.CHROMIUM_EXTRA_FLAGS ?? '').split(' ').filter(Boolean)],
});
const results = await runCheckPage(browser, `${base}/`, { stamp, timeoutMs: 5 * 60_000, pollingMs: 100 });
server.close();
exitWithResults(results, stamp);
