/**
 * `pnpm --filter @inkling/bench wllama-memory`: what llama.cpp's host-memory
 * prompt cache does to a wllama engine's memory while a person types with
 * ghost text on (one interactive request a keystroke, typing at the end of a
 * note), in headless Chromium on the generated test model. The renderer's
 * resident memory (the page and wllama's worker live in it) is read from
 * /proc every `--every` keystrokes, for each variant of the engine's
 * options, variants alternating run by run; with it the engine's estimate of
 * the cache, its worker restarts, and each request's time to its first chunk.
 *
 *   --keystrokes=1000  --every=50  --note=2000  --reps=1  --editEvery=8 (an edit mid-note every 8th request; 0: none)
 *   --variants=unbounded,kit     which engine options to compare (see VARIANTS)
 *   WLLAMA_LOG=1                 prints llama.cpp's cache lines from the page
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, defaultClientConditions } from 'vite';
import { launchChromium } from '../../e2e/support/chromium.js';
import { serveStatic } from '../../e2e/support/serveStatic.js';
import { makeTinyGguf } from '../../packages/wllama/src/testing/index.js';
import type { KeystrokeSample, MemoryConfig } from './page.js';

const quantile = (values: number[], q: number): number => {
  const sorted = values.filter((v) => Number.isFinite(v)).toSorted((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
};

const here = dirname(fileURLToPath(import.meta.url));
const arg = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1];
const keystrokes = Number(arg('keystrokes') ?? 1000);
const every = Number(arg('every') ?? 50);
const noteChars = Number(arg('note') ?? 2000);
const reps = Number(arg('reps') ?? 1);
const editEvery = Number(arg('editEvery') ?? 8);

/** The engine options compared. */
const VARIANTS: Record<string, { loadParams?: Record<string, unknown>; promptCacheLimitMiB?: number }> = {
  /** The engine as `wllamaEngines` loads it by default (the prompt cache bound at 256 MiB). */
  kit: {},
  /** No bound: the engine before `promptCacheLimitMiB`. */
  unbounded: { promptCacheLimitMiB: Number.POSITIVE_INFINITY },
  /** A tighter bound, for more restarts in 1,000 requests. */
  limit64: { promptCacheLimitMiB: 64 },
  /** llama.cpp's idle-slot saving off (changed nothing, round 5). */
  noIdleSlots: { loadParams: { cache_idle_slots: false }, promptCacheLimitMiB: Number.POSITIVE_INFINITY },
};
const DEFAULT_LIMIT_MIB = 256;
const names = (arg('variants') ?? 'unbounded,kit').split(',');

/** Resident memory in MiB of this process's descendants whose command line says `--type=renderer`. */
function rendererMiB(): number {
  const rows = execFileSync('ps', ['-eo', 'pid=,ppid=,rss=,args='], { encoding: 'utf8' })
    .split('\n')
    .map((line) => line.trim().match(/^(\d+)\s+(\d+)\s+(\d+)\s+(.*)$/))
    .filter((m): m is RegExpMatchArray => m !== null)
    .map((m) => ({ pid: Number(m[1]), ppid: Number(m[2]), rss: Number(m[3]), args: m[4]! }));
  const mine = new Set([process.pid]);
  for (let grew = true; grew;) {
    grew = false;
    for (const row of rows) {
      if (mine.has(row.ppid) && !mine.has(row.pid)) {
        mine.add(row.pid);
        grew = true;
      }
    }
  }
  const kib = rows.filter((r) => mine.has(r.pid) && r.args.includes('--type=renderer')).reduce((sum, r) => sum + r.rss, 0);
  return kib / 1024;
}

const outDir = join(here, 'dist');
await build({
  root: here,
  logLevel: 'warn',
  resolve: { conditions: ['@inkling/source', ...defaultClientConditions] },
  build: { outDir, emptyOutDir: true },
});
mkdirSync(join(outDir, 'models'), { recursive: true });
writeFileSync(join(outDir, 'models', 'chat.gguf'), makeTinyGguf({ seed: 1 }));
const server = await serveStatic(outDir);

interface Run {
  variant: string;
  rep: number;
  points: Array<KeystrokeSample & { rendererMiB: number }>;
  firstChunkMs: number[];
  afterRestart: number[];
}
const runs: Run[] = [];
for (let rep = 0; rep < reps; rep += 1) {
  for (const variant of rep % 2 === 0 ? names : names.toReversed()) {
    const browser = await launchChromium();
    try {
      const page = await browser.newPage();
      page.on('pageerror', (error) => console.log(`[page error] ${error.message}`));
      if (process.env.WLLAMA_LOG) {
        page.on('console', (m) => /cache|slot|checkpoint/i.test(m.text()) && console.log(`[llama] ${m.text().slice(0, 200)}`));
        await page.addInitScript(() => ((globalThis as { inklingVerbose?: boolean }).inklingVerbose = true));
      }
      const memory: number[] = [];
      await page.exposeFunction('inklingSample', () => void memory.push(rendererMiB()));
      await page.goto(server.url);
      await page.waitForFunction(() => typeof window.inklingWllamaMemory === 'function');
      const config: MemoryConfig = {
        model: '/models/chat.gguf',
        noteChars,
        keystrokes,
        sampleEvery: every,
        editEvery,
        loadParams: VARIANTS[variant]!.loadParams ?? {},
        promptCacheLimitMiB: VARIANTS[variant]!.promptCacheLimitMiB ?? DEFAULT_LIMIT_MIB,
      };
      const { samples, firstChunkMs, afterRestart } = await page.evaluate((c) => window.inklingWllamaMemory(c), config);
      const points = samples.map((s, i) => ({ ...s, rendererMiB: memory[i + 1]! }));
      runs.push({ variant, rep, points, firstChunkMs, afterRestart });
      const first = memory[1]!;
      const last = points.at(-1)!;
      console.log(
        `${variant} rep ${rep}: renderer ${memory[0]!.toFixed(0)} MiB loaded, ${first.toFixed(0)} after ${every} keystrokes, ${last.rendererMiB.toFixed(0)} after ${last.keystrokes} (${(((last.rendererMiB - first) / (last.keystrokes - every)) * 1000).toFixed(0)} MiB per 1,000 keystrokes), peak ${Math.max(...points.map((p) => p.rendererMiB)).toFixed(0)}; last prompt ${last.promptTokens} tokens, ${last.cachedTokens} cached`,
      );
      const quarter = [1, 2, 3, 4].map((k) => points.findLast((p) => p.keystrokes <= (keystrokes * k) / 4) ?? last);
      console.log(
        `  renderer MiB at 0: ${memory[0]!.toFixed(0)}, ${quarter.map((p) => `${p.keystrokes}: ${p.rendererMiB.toFixed(0)}`).join(', ')}`,
      );
      console.log(`  estimated cache MiB at ${quarter.map((p) => `${p.keystrokes}: ${p.estimatedMiB.toFixed(1)}`).join(', ')}`);
      const restartWaits = afterRestart.map((i) => firstChunkMs[i]!);
      const others = firstChunkMs.filter((_, i) => !afterRestart.includes(i));
      console.log(
        `  restarts ${last.restarts} (${last.restarts > 0 ? (last.restartMs / last.restarts).toFixed(0) : '-'} ms each); first chunk ms median ${quantile(firstChunkMs, 0.5).toFixed(1)}, p95 ${quantile(firstChunkMs, 0.95).toFixed(1)}, max ${quantile(firstChunkMs, 1).toFixed(1)}; without the ${restartWaits.length} after a restart: median ${quantile(others, 0.5).toFixed(1)}, p95 ${quantile(others, 0.95).toFixed(1)}; after a restart: median ${quantile(restartWaits, 0.5).toFixed(1)}`,
      );
    } finally {
      await browser.close();
    }
  }
}
await server.close();
const results = join(here, '..', 'results');
mkdirSync(results, { recursive: true });
writeFileSync(
  join(results, 'wllama-memory.json'),
  `${JSON.stringify({ date: new Date().toISOString(), keystrokes, every, noteChars, runs }, null, 2)}\n`,
);
