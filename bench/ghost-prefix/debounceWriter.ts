/**
 * Adaptive debounce on wllama (llama.cpp in WebAssembly, one CPU thread, the
 * generated test model) in headless Chromium, in real time: the writer of
 * `writerSession.ts` typed by a slow, uneven typist (gaps of `--gapMs` ±
 * `--jitterMs`, seeded), against the fixed 120 ms debounce twice (identical
 * baselines: the machine's noise) and `adaptiveDebounce({ minMs: 60, maxMs:
 * 600 })`, rotated run by run on the same notes, steps and key gaps. Per run:
 * interactive requests per accepted character, and the p95 of last key →
 * visible suggestion after each word (`writerReplay.ts`'s `pause` waits).
 *
 *   pnpm --filter @inkling/bench exec tsx --conditions=@inkling/source ghost-prefix/debounceWriter.ts [--reps=5] [--steps=16] [--gapMs=170] [--jitterMs=80]
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeTinyGguf } from '../../packages/wllama/src/testing/index.js';
import { runPageBench } from '../shared/pageBench.js';
import { fmt, median, percentile, table } from '../shared/stats.js';
import type { DebounceConfig, DebounceRun, DebounceVariant } from './writer/page.js';

const here = dirname(fileURLToPath(import.meta.url));
const arg = (name: string, fallback: number) => Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback);
const config: DebounceConfig = {
  model: '/models/chat.gguf',
  note: arg('note', 2000),
  steps: arg('steps', 16),
  reps: arg('reps', 5),
  maxTokens: arg('maxTokens', 12),
  readMs: arg('readMs', 400),
  gapMs: arg('gapMs', 170),
  jitterMs: arg('jitterMs', 80),
};

const runs = await runPageBench<DebounceRun[]>(join(here, 'writer'), 'inklingDebounceWriter', config, (outDir) => {
  mkdirSync(join(outDir, 'models'), { recursive: true });
  writeFileSync(join(outDir, 'models', 'chat.gguf'), makeTinyGguf({ seed: 1 }));
});
const spread = (values: readonly number[], digits: number) =>
  `${fmt(median(values), digits)} (${fmt(Math.min(...values), digits)}–${fmt(Math.max(...values), digits)})`;
/** A run's waits for a suggestion after a pause between words. */
const afterWord = (run: DebounceRun) =>
  run.waits.filter((wait) => wait.after === 'pause' && Number.isFinite(wait.ms)).map((wait) => wait.ms);
const variants = [...new Set(runs.map((run) => run.variant))] as DebounceVariant[];
const rows = variants.map((variant) => {
  const list = runs.filter((run) => run.variant === variant);
  return [
    variant,
    String(list.length),
    spread(
      list.map((run) => run.requests),
      0,
    ),
    spread(
      list.map((run) => run.acceptedChars),
      0,
    ),
    spread(
      list.map((run) => run.requests / Math.max(1, run.acceptedChars)),
      3,
    ),
    spread(
      list.map((run) => percentile(afterWord(run), 95)),
      0,
    ),
    spread(
      list.map((run) => median(run.firstTokenMs)),
      0,
    ),
    String(list.reduce((n, run) => n + run.waits.filter((wait) => !Number.isFinite(wait.ms)).length, 0)),
  ];
});
console.log(
  `\nAdaptive debounce on wllama, one CPU thread, the generated test model, headless Chromium, real time: typist ${config.gapMs} ± ${config.jitterMs} ms, ${config.steps} steps a run, rotated; median (min–max) over runs\n`,
);
console.log(
  table(
    [
      'debounce',
      'runs',
      'requests',
      'accepted chars',
      'requests / accepted char',
      'last key → suggestion p95 ms',
      'first token p50 ms',
      'waits with none in 4 s',
    ],
    rows,
  ),
);
const results = join(here, '..', 'results');
mkdirSync(results, { recursive: true });
writeFileSync(
  join(results, 'ghost-debounce-wllama.json'),
  `${JSON.stringify({ date: new Date().toISOString(), config, runs }, null, 2)}\n`,
);
