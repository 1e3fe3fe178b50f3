/**
 * `pnpm verify:real-engine`: a tool, not a test. Generates a synthetic model
 * from a real WebLLM model library (zero weights, so `logit_bias` makes the
 * output deterministic), serves it on 127.0.0.1, and runs @inkling/webllm +
 * EnginePool against it in headless Chromium (SwiftShader WebGPU on a CPU).
 *
 * Environment:
 *   INKLING_MODEL_LIBS  folder holding the model libraries (required)
 *   CHROMIUM            browser binary (default /usr/bin/chromium)
 *   INKLING_CHECK_TIMEOUT_MIN  give up after this many minutes (default 45)
 *   INKLING_CHECK_ONLY=embedding  run the embedding check alone
 *   CHROMIUM_EXTRA_FLAGS  more Chromium switches, space-separated
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { chromium } from 'playwright-core';
import { buildPage } from './build.js';
import { requireModelLibs } from './modelLibs.js';
import { serve } from './serve.js';
import { CHAT_MODEL, EMBED_MODEL, LIBS } from './setup.js';
import { writeSyntheticModel } from './syntheticModel.js';
import { chromiumFlags } from '../../../e2e/support/chromiumFlags.js';
import { exitWithResults, runCheckPage } from './checkPage.js';

const repo = resolve(import.meta.dirname, '../../..');
const work = join(repo, '.real-engine');

function fail(message: string): never {
  console.error(message);
  process.exit(2);
}

const libs = requireModelLibs('verify:real-engine');
const browserPath = process.env.CHROMIUM ?? '/usr/bin/chromium';
if (!existsSync(browserPath)) fail(`No Chromium at ${browserPath}: install Debian's (apt-get install -y chromium) or set CHROMIUM.`);
const withEmbedding = existsSync(join(libs, LIBS.embedding));
const timeoutMin = Number(process.env.INKLING_CHECK_TIMEOUT_MIN ?? 45);

const started = performance.now();
const stamp = () => `${((performance.now() - started) / 1000).toFixed(0).padStart(4)} s`;
console.log(`${stamp()}  generating the synthetic model(s) in ${work}/models`);
const meta = await writeSyntheticModel({ libPath: join(libs, LIBS.chat), dir: join(work, 'models', CHAT_MODEL), tokenizer: 'qwen' });
console.log(`${stamp()}  ${CHAT_MODEL}: ${meta.model_type} ${meta.quantization}, ${meta.params.length} tensors, all zeros`);
if (withEmbedding) {
  const embed = await writeSyntheticModel({
    libPath: join(libs, LIBS.embedding),
    dir: join(work, 'models', EMBED_MODEL),
    tokenizer: 'wordpiece',
  });
  console.log(`${stamp()}  ${EMBED_MODEL}: ${embed.model_type} ${embed.quantization}, ${embed.params.length} tensors, all zeros`);
}
await buildPage(join(work, 'page'));
const { server, base } = await serve({ '/libs/': libs, '/models/': join(work, 'models'), '/': join(work, 'page') });
console.log(`${stamp()}  serving on ${base}; starting headless Chromium`);

const browser = await chromium.launch({
  executablePath: browserPath,
  args: [...chromiumFlags({ webgpu: true }), ...(process.env.CHROMIUM_EXTRA_FLAGS ?? '').split(' ').filter(Boolean)],
});
const only = process.env.INKLING_CHECK_ONLY === 'embedding' ? '&only=embedding' : '';
const results = await runCheckPage(browser, `${base}/?embedding=${withEmbedding ? 1 : 0}${only}`, {
  stamp,
  timeoutMs: timeoutMin * 60_000,
  pollingMs: 1000,
  warnings: true,
});
server.close();
exitWithResults(results, stamp);
