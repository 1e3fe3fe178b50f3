import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchChromium } from '../support/chromium.js';
import { serveStatic } from '../support/serveStatic.js';
import { writeViteApp } from './apps.js';
import { expectSuggestion, expectWebLLMWorkerAnswered } from './browserChecks.js';
import { npm } from './npm.js';

describe('a fresh Vite + React app with the packed packages', () => {
  const root = join(inject('consumerRoot'), 'vite-app');
  let server: Awaited<ReturnType<typeof serveStatic>>;
  let browser: Browser;
  let page: Page;
  const workerUrls: string[] = [];

  beforeAll(async () => {
    writeViteApp(root, inject('tarballs'));
    npm(root, ['install', '--prefer-offline', '--no-package-lock']);
    npm(root, ['run', 'build']);
    server = await serveStatic(join(root, 'dist'));
    browser = await launchChromium();
    page = await browser.newPage();
    page.on('worker', (worker) => workerUrls.push(worker.url()));
    await page.goto(server.url);
  }, 300_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('starts the default WebLLM worker, which answers', async () => {
    await expectWebLLMWorkerAnswered(page, workerUrls);
  });

  it('shows a suggestion from a simulated engine in a GhostTextarea', async () => {
    await expectSuggestion(page);
  });

  it('installs one copy of @inkling/scheduler, which every package shares', () => {
    const copies = readdirSync(join(root, 'node_modules'), { recursive: true, encoding: 'utf8' }).filter((path) =>
      path.endsWith(join('node_modules', '@inkling', 'scheduler')) || path === join('@inkling', 'scheduler'),
    );
    expect(copies).toEqual([join('@inkling', 'scheduler')]);
  });
});
