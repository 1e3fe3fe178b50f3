import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchChromium } from '../support/chromium.js';
import { writeNextApp } from './apps.js';
import { expectSuggestion, expectWebLLMWorkerAnswered } from './browserChecks.js';
import { npm } from './npm.js';

/** A free port on 127.0.0.1. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as { port: number };
  await new Promise<void>((done) => server.close(() => done()));
  return port;
}

/** Starts `next start` and resolves once it answers. */
async function startNext(root: string): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn(join(root, 'node_modules/.bin/next'), ['start', '-p', String(port), '-H', '127.0.0.1'], {
    cwd: root,
    stdio: 'ignore',
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' },
  });
  const url = `http://127.0.0.1:${port}`;
  const end = Date.now() + 30_000;
  while (Date.now() < end) {
    const up = await fetch(url).then(
      (r) => r.ok,
      () => false,
    );
    if (up) return { url, child };
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  child.kill();
  throw new Error(`next start did not answer on ${url} within 30 s`);
}

describe('a fresh Next.js App Router app with the packed packages', () => {
  const root = join(inject('consumerRoot'), 'next-app');
  let next: { url: string; child: ChildProcess } | undefined;
  let browser: Browser;
  let page: Page;
  const workerUrls: string[] = [];

  beforeAll(async () => {
    writeNextApp(root, inject('tarballs'));
    npm(root, ['install', '--prefer-offline', '--no-package-lock']);
    npm(root, ['run', 'build']);
    next = await startNext(root);
  }, 300_000);

  afterAll(async () => {
    await browser?.close();
    next?.child.kill();
  });

  it('next build succeeds with a server page importing GhostTextarea from @inkling/react', () => {
    // The page is a server component; it built because the component is a client module.
    expect(readdirSync(join(root, '.next'))).toContain('BUILD_ID');
  });

  it("ships @inkling/react's hooks and components as client modules, its core as plain modules", () => {
    const dist = join(root, 'node_modules/@inkling/react/dist');
    const first = (file: string) => readFileSync(join(dist, file), 'utf8').split('\n', 1)[0];
    expect(first('ghost/components/GhostTextarea.js')).toBe("'use client';");
    expect(first('ghost/hooks/useGhostText.js')).toBe("'use client';");
    expect(first('base/PoolProvider.js')).toBe("'use client';");
    expect(first('chat/core/chatController.js')).not.toBe("'use client';");
    expect(first('index.js')).not.toBe("'use client';");
    expect(readFileSync(join(root, 'node_modules/@inkling/scheduler/dist/index.js'), 'utf8')).not.toMatch(/use client/);
  });

  it('server-renders the page, the GhostTextarea included', async () => {
    const html = await (await fetch(next?.url ?? '')).text();
    expect(html).toContain('<h1>Notes</h1>');
    expect(html).toMatch(/<textarea[^>]*aria-label="Note"[^>]*>\s*Server-rendered note/);
  });

  it('in the browser, starts the default WebLLM worker and suggests in the GhostTextarea', async () => {
    browser = await launchChromium();
    page = await browser.newPage();
    page.on('worker', (worker) => workerUrls.push(worker.url()));
    await page.goto(next?.url ?? '');
    await expectWebLLMWorkerAnswered(page, workerUrls);
    await expectSuggestion(page);
  });
});
