import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { makeTinyGguf } from '@inkling/wllama/testing';
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
    // The real engine's model: a tiny random-weight GGUF, served next to the build.
    mkdirSync(join(root, 'models'));
    writeFileSync(join(root, 'models', 'chat.gguf'), makeTinyGguf({ seed: 1 }));
    server = await serveStatic(join(root, 'dist'), { '/models/': join(root, 'models') });
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

  it('shows a suggestion from a real wllama engine (llama.cpp in WebAssembly) on a tiny GGUF', async () => {
    const cpuPage = await browser.newPage();
    const requests: string[] = [];
    cpuPage.on('request', (request) => requests.push(`${request.method()} ${new URL(request.url()).pathname}`));
    await cpuPage.goto(`${server.url}/?cpu`);
    const suggestion = await expectSuggestion(cpuPage, 'CPU note');
    console.log(`consumer: wllama suggested ${JSON.stringify(suggestion)}`);
    // The model and wllama's WebAssembly came from this server: the build's own file, no CDN.
    // (@inkling/wllama checks the WebAssembly is there with a HEAD first.)
    expect(requests).toContain('GET /models/chat.gguf');
    expect(requests.filter((line) => line.startsWith('GET') && line.endsWith('.wasm'))).toEqual([
      expect.stringMatching(/^GET \/assets\/wllama-[\w-]+\.wasm$/),
    ]);
    await cpuPage.close();
  });

  it('runs generateText from the AI SDK on the simulated pool through the packed @inkling/ai-sdk', async () => {
    await page.waitForFunction(() => document.body.dataset.aiSdk !== undefined || document.body.dataset.aiSdkError !== undefined, null, {
      timeout: 30_000,
    });
    const { text, finish, error } = await page.evaluate(() => ({
      text: document.body.dataset.aiSdk,
      finish: document.body.dataset.aiSdkFinish,
      error: document.body.dataset.aiSdkError,
    }));
    console.log(`consumer: AI SDK generateText answered ${JSON.stringify(text)} (${finish})`);
    expect(error).toBeUndefined();
    expect(finish).toBe('stop');
    expect(text?.trim().length).toBeGreaterThan(0);
  });

  it('imports every entry of every installed package in Node (as a test or a server render would)', () => {
    const entries = readdirSync(join(root, 'node_modules', '@inkling')).flatMap((name) => {
      const { exports } = JSON.parse(readFileSync(join(root, 'node_modules', '@inkling', name, 'package.json'), 'utf8'));
      return Object.keys(exports)
        .filter((path) => path !== './package.json' && !path.endsWith('.css'))
        .map((path) => `@inkling/${name}${path.slice(1)}`);
    });
    // The worker's entry serves an engine on a worker's own scope (the browser test above runs it); Node has none.
    const imported = entries.filter((entry) => entry !== '@inkling/webllm/worker');
    expect(entries).toContain('@inkling/webllm/worker');
    const outside = `await import('@inkling/webllm/worker').then(() => console.log('served'), (error) => console.log(error.name, error.message));`;
    expect(execFileSync(process.execPath, ['--input-type=module', '-e', outside], { cwd: root, encoding: 'utf8' })).toMatch(
      /^InvalidOptionError .*import it from a worker's file/,
    );
    const script = `for (const entry of ${JSON.stringify(imported)}) { const names = Object.keys(await import(entry)); if (names.length === 0) throw new Error(entry + ' exports nothing'); } console.log('imported');`;
    expect(execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: root, encoding: 'utf8' }).trim()).toBe('imported');
    expect(imported).toEqual(expect.arrayContaining(['@inkling/scheduler/engine', '@inkling/scheduler/storage', '@inkling/react/core']));
    expect(imported.length).toBeGreaterThanOrEqual(18);
  });

  it('installs one copy of @inkling/scheduler, which every package shares', () => {
    const copies = readdirSync(join(root, 'node_modules'), { recursive: true, encoding: 'utf8' }).filter(
      (path) => path.endsWith(join('node_modules', '@inkling', 'scheduler')) || path === join('@inkling', 'scheduler'),
    );
    expect(copies).toEqual([join('@inkling', 'scheduler')]);
  });
});
