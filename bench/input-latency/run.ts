/**
 * `pnpm bench:latency`: input latency (keydown to next paint) while typing
 * 200 characters into a GhostTextarea, against the same typing into a plain
 * textarea, in headless Chromium, with two simulated engines streaming a
 * page translation and ghost text in the background of both. Also counts
 * long tasks (over 50 ms). Prints a table; writes bench/results/input-latency.json.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import type { Browser } from 'playwright-core';
import { build, defaultClientConditions } from 'vite';
import { launchChromium } from '../../e2e/support/chromium.js';
import { serveStatic } from '../../e2e/support/serveStatic.js';
import { fmt, percentile, table } from '../shared/stats.js';

const here = dirname(fileURLToPath(import.meta.url));
const TEXT = 'The meeting moved to Thursday, so we can finish the draft and share it with everyone before the review. '
  .repeat(3)
  .slice(0, 200);
const KEY_DELAY_MS = 90;
const ROUNDS = 3;

type Mode = 'plain' | 'ghost' | 'events';

interface Sample {
  delays: number[];
  longTasks: number[];
  translated: number;
  suggestionsSeen: number;
}

async function typeOnce(browser: Browser, url: string, mode: Mode): Promise<Sample> {
  const page = await browser.newPage();
  await page.goto(`${url}/?mode=${mode}`);
  await page.waitForFunction(() => Number(document.getElementById('progress')?.textContent ?? 0) > 0, undefined, { timeout: 30_000 });
  await page.locator('#field').click();
  await page.evaluate(() => window.inklingLatencyReset());
  let suggestionsSeen = 0;
  for (let i = 0; i < TEXT.length; i += 1) {
    await page.keyboard.type(TEXT[i] as string);
    // A person pauses between some words; that is when ghost text shows.
    const pause = TEXT[i] === ' ' && i % 3 === 0 ? 400 : KEY_DELAY_MS;
    await page.waitForTimeout(pause);
    if (pause > KEY_DELAY_MS && (await page.locator('[data-has-suggestion="true"]').count()) > 0) suggestionsSeen += 1;
  }
  const results = await page.evaluate(() => ({
    ...window.inklingLatency,
    translated: Number(document.getElementById('progress')?.textContent ?? 0),
  }));
  await page.close();
  // The first keys pay for JIT warm-up in either field.
  return { delays: results.delays.slice(5), longTasks: results.longTasks, translated: results.translated, suggestionsSeen };
}

const outDir = join(here, 'dist');
await build({
  root: here,
  logLevel: 'warn',
  plugins: [react()],
  resolve: { conditions: ['@inkling/source', ...defaultClientConditions] },
  build: { outDir, emptyOutDir: true },
});
const server = await serveStatic(outDir);
const browser = await launchChromium();
const samples: Record<Mode, Sample[]> = { plain: [], ghost: [], events: [] };
try {
  for (let round = 0; round < ROUNDS; round += 1) {
    // Alternate which field goes first, so neither always types into a warmer browser.
    const modes: Mode[] = ['plain', 'ghost', 'events'];
    const order = [...modes.slice(round % 3), ...modes.slice(0, round % 3)];
    for (const mode of order) samples[mode].push(await typeOnce(browser, server.url, mode));
  }
} finally {
  await browser.close();
  await server.close();
}

const summary = (mode: Mode) => {
  const delays = samples[mode].flatMap((s) => s.delays);
  const longTasks = samples[mode].flatMap((s) => s.longTasks);
  return {
    mode,
    keys: delays.length,
    p50: percentile(delays, 50),
    p95: percentile(delays, 95),
    max: Math.max(...delays),
    longTasks: longTasks.length,
    longestTask: longTasks.length ? Math.max(...longTasks) : 0,
    translatedPerRun: samples[mode].map((s) => s.translated),
    suggestionsSeen: samples[mode].reduce((n, s) => n + s.suggestionsSeen, 0),
  };
};
const plain = summary('plain');
const ghost = summary('ghost');
const events = summary('events');
console.log(
  `\nInput latency, keydown to next paint (${ROUNDS} rounds x ${TEXT.length} characters per field, headless Chromium, 2 simulated engines busy)\n`,
);
console.log(
  table(
    ['field', 'keys', 'p50 ms', 'p95 ms', 'max ms', 'long tasks >50 ms', 'suggestions seen'],
    [plain, ghost, events].map((s) => [
      { plain: 'plain <textarea> (baseline)', ghost: 'GhostTextarea', events: 'GhostTextarea + ghostEvents -> GhostFigures' }[s.mode],
      String(s.keys),
      fmt(s.p50),
      fmt(s.p95),
      fmt(s.max),
      s.longTasks ? `${s.longTasks} (longest ${fmt(s.longestTask)} ms)` : '0',
      String(s.suggestionsSeen),
    ]),
  ),
);
console.log(`\nGhostTextarea p95 - plain p95: ${fmt(ghost.p95 - plain.p95)} ms (target: within 4 ms, no long tasks)`);
console.log(`with events p95 - GhostTextarea p95: ${fmt(events.p95 - ghost.p95)} ms (events should cost nothing measurable)`);
const results = join(here, '..', 'results');
mkdirSync(results, { recursive: true });
writeFileSync(
  join(results, 'input-latency.json'),
  `${JSON.stringify({ date: new Date().toISOString(), plain, ghost, events }, null, 2)}\n`,
);
console.log(`wrote ${join(results, 'input-latency.json')}`);
