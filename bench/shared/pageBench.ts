/**
 * Runs a benchmark page in headless Chromium: builds `root` (its
 * index.html) with Vite from the packages' sources, writes the files
 * `prepare` adds (generated models), serves the build on 127.0.0.1 and calls
 * the page's `window[entry](config)`, returning what it resolves with.
 */
import { join } from 'node:path';
import { build, defaultClientConditions } from 'vite';
import { launchChromium } from '../../e2e/support/chromium.js';
import { serveStatic } from '../../e2e/support/serveStatic.js';

export async function runPageBench<T>(
  root: string,
  entry: string,
  config: unknown,
  prepare: (outDir: string) => void = () => {},
): Promise<T> {
  const outDir = join(root, 'dist');
  await build({
    root,
    logLevel: 'warn',
    resolve: { conditions: ['@inkling/source', ...defaultClientConditions] },
    build: { outDir, emptyOutDir: true },
  });
  prepare(outDir);
  const server = await serveStatic(outDir);
  const browser = await launchChromium();
  try {
    const page = await browser.newPage();
    page.on('pageerror', (error) => console.log(`[page error] ${error.message}`));
    await page.goto(server.url);
    await page.waitForFunction((name) => typeof (window as unknown as Record<string, unknown>)[name] === 'function', entry);
    return (await page.evaluate(
      ([name, value]) =>
        ((window as unknown as Record<string, (c: unknown) => Promise<unknown>>)[name as string] as (c: unknown) => Promise<unknown>)(
          value,
        ),
      [entry, config] as const,
    )) as T;
  } finally {
    await browser.close();
    await server.close();
  }
}
