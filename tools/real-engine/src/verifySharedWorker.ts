/**
 * `pnpm verify:real-engine --host=shared-worker`: a slow, opt-in check (about 5 minutes on a
 * CPU). Real WebLLM (0.2.79, the synthetic model) runs inside a SharedWorker through
 * @inkling/shared-pool's `hostSharedWorker`, the MLCEngine in the worker's own thread; two pages
 * are clients. It checks that the second page finds the model loaded (one engine build for
 * both) and that a short completion streams to each page.
 *
 * Environment: INKLING_MODEL_LIBS (required), CHROMIUM, INKLING_CHECK_TIMEOUT_MIN (default 20).
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { type Page, chromium } from 'playwright-core';
import { buildSharedWorkerPage } from './build.js';
import type { CheckResult } from './checks.js';
import { requireModelLibs } from './modelLibs.js';
import { serve } from './serve.js';
import { CHAT_MODEL, DETERMINISTIC, LIBS } from './setup.js';
import { writeSyntheticModel } from './syntheticModel.js';
import { chromiumFlags } from '../../../e2e/support/chromiumFlags.js';

const work = join(resolve(import.meta.dirname, '../../..'), '.real-engine');
const libs = requireModelLibs('verify:real-engine --host=shared-worker', ' --host=shared-worker');
const browserPath = process.env.CHROMIUM ?? '/usr/bin/chromium';
if (!existsSync(browserPath)) {
  console.error(`No Chromium at ${browserPath}: install Debian's (apt-get install -y chromium) or set CHROMIUM.`);
  process.exit(2);
}
const timeoutMs = Number(process.env.INKLING_CHECK_TIMEOUT_MIN ?? 20) * 60_000;

const started = performance.now();
const stamp = () => `${((performance.now() - started) / 1000).toFixed(0).padStart(4)} s`;
const results: CheckResult[] = [];
const record = (name: string, ok: boolean, detail: string) => {
  results.push({ name, ok, detail });
  console.log(`${stamp()}  ${ok ? 'PASS' : 'FAIL'} ${name}: ${detail}`);
};

const meta = await writeSyntheticModel({ libPath: join(libs, LIBS.chat), dir: join(work, 'models', CHAT_MODEL), tokenizer: 'qwen' });
console.log(`${stamp()}  ${CHAT_MODEL}: ${meta.model_type} ${meta.quantization}, ${meta.params.length} tensors, all zeros`);
await buildSharedWorkerPage(join(work, 'shared-page'));
const { server, base } = await serve({ '/libs/': libs, '/models/': join(work, 'models'), '/': join(work, 'shared-page') });
console.log(`${stamp()}  serving on ${base}; starting headless Chromium (SwiftShader WebGPU)`);
const browser = await chromium.launch({
  executablePath: browserPath,
  args: chromiumFlags({ webgpu: true }),
});

async function open(label: string): Promise<Page> {
  const page = await context.newPage();
  page.on('console', (message) => {
    const text = message.text();
    if (text.startsWith('[check] ')) console.log(`${stamp()}  ${text.slice(8)}`);
    else if (message.type() === 'error') console.log(`${stamp()}  [${label} error] ${text.slice(0, 300)}`);
  });
  page.on('pageerror', (error) => console.log(`${stamp()}  [${label} page error] ${error.message}`));
  await page.goto(base);
  await page.waitForFunction(() => window.inklingShared !== undefined);
  return page;
}

const ask = { messages: [{ role: 'user' as const, content: 'Say ok.' }], max_tokens: 3, ...DETERMINISTIC };
const context = await browser.newContext();
const gaveUp = setTimeout(() => {
  console.log(`${stamp()}  gave up after ${timeoutMs / 60_000} minutes`);
  process.exit(1);
}, timeoutMs);
try {
  const first = await open('page 1');
  const load1 = await first.evaluate(() => window.inklingShared!.load('page 1'));
  record(
    'page 1 loads the model in the SharedWorker, with progress',
    load1.phase === 'ready' && load1.reports > 0,
    `${(load1.ms / 1000).toFixed(1)} s, ${load1.reports} progress reports`,
  );
  const second = await open('page 2');
  const load2 = await second.evaluate(() => window.inklingShared!.load('page 2'));
  const builds = await first.evaluate(() => window.inklingShared!.builds());
  record(
    'page 2 finds it loaded (one engine build)',
    load2.phase === 'ready' && builds === 1,
    `load took ${load2.ms.toFixed(0)} ms; ${builds} engine build(s) heard by page 1`,
  );
  // Both at once: the host queues them on its one engine.
  const [one, two] = await Promise.all(
    [first, second].map((page) => page.evaluate((params) => window.inklingShared!.complete(params), ask)),
  );
  for (const [label, done] of [
    ['page 1', one!],
    ['page 2', two!],
  ] as const) {
    const ok = done.status === 'done' && done.text === ' ok ok ok' && done.streamed === done.text && done.chunks >= 3;
    const timing = `first token ${((done.firstTokenMs ?? Number.NaN) / 1000).toFixed(1)} s, done ${(done.totalMs / 1000).toFixed(1)} s`;
    record(
      `a completion streams to ${label}`,
      ok,
      `${done.status} ${JSON.stringify(done.text)} in ${done.chunks} chunks; ${timing}${done.error ? `; ${done.error}` : ''}`,
    );
  }
} catch (error) {
  record('the check ran', false, String(error));
} finally {
  clearTimeout(gaveUp);
  await browser.close();
  server.close();
}
const passed = results.filter((r) => r.ok).length;
console.log(`\n${passed} passed, ${results.length - passed} failed (${stamp().trim()} in all)`);
process.exit(results.length > 0 && passed === results.length ? 0 : 1);
