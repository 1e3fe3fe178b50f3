/**
 * `pnpm bench:latency`: input latency (keydown to next paint) while typing
 * 200 characters into a field, in headless Chromium, with two simulated
 * engines streaming a page translation and ghost text in the background.
 * By default: GhostTextarea, GhostTextarea again (an identical baseline: the
 * noise) and GhostTextarea with `ghostEvents` feeding `GhostFigures`, the
 * order rotated each round; `--modes=plain,plain again,ghost,…` adds a plain
 * textarea. Also counts long tasks (over 50 ms). Prints per-run p50/p95
 * (median, min–max) and the per-round p95 ratios; writes
 * bench/results/input-latency.json.
 *
 *   --rounds=5   rounds (each mode once a round)
 *   --modes=ghost,ghost again,events
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import type { Browser } from 'playwright-core';
import { build, defaultClientConditions } from 'vite';
import { launchChromium } from '../../e2e/support/chromium.js';
import { serveStatic } from '../../e2e/support/serveStatic.js';
import { fmt, median, percentile, table } from '../shared/stats.js';

const here = dirname(fileURLToPath(import.meta.url));
const TEXT = 'The meeting moved to Thursday, so we can finish the draft and share it with everyone before the review. '
  .repeat(3)
  .slice(0, 200);
const KEY_DELAY_MS = 90;

/** The page's field: a plain textarea, GhostTextarea, or GhostTextarea with `ghostEvents` feeding `GhostFigures`. */
type Field = 'plain' | 'ghost' | 'events';
/** What a run types into: a field, or the same field again (a second, identical baseline: the noise). */
type Mode = Field | 'ghost again' | 'plain again';
const FIELD: Record<Mode, Field> = { plain: 'plain', 'plain again': 'plain', ghost: 'ghost', 'ghost again': 'ghost', events: 'events' };
const LABEL: Record<Mode, string> = {
  plain: 'plain <textarea>',
  'plain again': 'plain <textarea> again',
  ghost: 'GhostTextarea',
  'ghost again': 'GhostTextarea again (noise)',
  events: 'GhostTextarea + ghostEvents -> GhostFigures',
};
const arg = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1];
const ROUNDS = Number(arg('rounds') ?? 5);
const MODES = (arg('modes') ?? 'ghost,ghost again,events').split(',') as Mode[];
for (const mode of MODES)
  if (!(mode in FIELD)) throw new Error(`--modes: unknown mode "${mode}"; one of ${Object.keys(FIELD).join(', ')}.`);

interface Sample {
  delays: number[];
  longTasks: number[];
  translated: number;
  suggestionsSeen: number;
}

async function typeOnce(browser: Browser, url: string, mode: Mode): Promise<Sample> {
  const page = await browser.newPage();
  await page.goto(`${url}/?mode=${FIELD[mode]}`);
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
const samples = new Map<Mode, Sample[]>(MODES.map((mode) => [mode, []]));
try {
  for (let round = 0; round < ROUNDS; round += 1) {
    // Rotate which field goes first, so none always types into a warmer browser.
    const order = [...MODES.slice(round % MODES.length), ...MODES.slice(0, round % MODES.length)];
    for (const mode of order) samples.get(mode)?.push(await typeOnce(browser, server.url, mode));
  }
} finally {
  await browser.close();
  await server.close();
}

const range = (values: readonly number[], digits = 1) =>
  `${fmt(median(values), digits)} (${fmt(Math.min(...values), digits)}–${fmt(Math.max(...values), digits)})`;
const summary = (mode: Mode) => {
  const runs = samples.get(mode) ?? [];
  const longTasks = runs.flatMap((s) => s.longTasks);
  return {
    mode,
    keys: runs.reduce((n, s) => n + s.delays.length, 0),
    /** Per run, in the order of the rounds. */
    p50: runs.map((s) => percentile(s.delays, 50)),
    p95: runs.map((s) => percentile(s.delays, 95)),
    longTasks: longTasks.length,
    longestTask: longTasks.length ? Math.max(...longTasks) : 0,
    translatedPerRun: runs.map((s) => s.translated),
    suggestionsSeen: runs.reduce((n, s) => n + s.suggestionsSeen, 0),
  };
};
const summaries = MODES.map(summary);
console.log(
  `\nInput latency, keydown to next paint (${ROUNDS} rounds x ${TEXT.length} characters per field, the order rotated each round; headless Chromium, 2 simulated engines busy). Per-run p50 and p95: median (min–max) over the runs.\n`,
);
console.log(
  table(
    ['field', 'keys', 'p50 ms', 'p95 ms', 'long tasks >50 ms', 'suggestions seen'],
    summaries.map((s) => [
      LABEL[s.mode],
      String(s.keys),
      range(s.p50),
      range(s.p95),
      s.longTasks ? `${s.longTasks} (longest ${fmt(s.longestTask)} ms)` : '0',
      String(s.suggestionsSeen),
    ]),
  ),
);
/** Per round, `a`'s p95 over `b`'s (the same round): median (min–max). */
const ratio = (a: Mode, b: Mode) => {
  const [x, y] = [summaries.find((s) => s.mode === a), summaries.find((s) => s.mode === b)];
  if (!x || !y) return;
  const ratios = x.p95.map((v, i) => v / (y.p95[i] as number));
  console.log(`p95 ${LABEL[a]} / ${LABEL[b]}, per round: ${range(ratios, 3)}`);
};
ratio('ghost again', 'ghost');
ratio('events', 'ghost');
ratio('plain again', 'plain');
ratio('ghost', 'plain');
const results = join(here, '..', 'results');
mkdirSync(results, { recursive: true });
writeFileSync(
  join(results, 'input-latency.json'),
  `${JSON.stringify({ date: new Date().toISOString(), rounds: ROUNDS, summaries }, null, 2)}\n`,
);
console.log(`wrote ${join(results, 'input-latency.json')}`);
