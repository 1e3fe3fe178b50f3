/**
 * `pnpm --filter @inkling/bench ghost-writer`: a writer with ghost text on
 * wllama (llama.cpp in WebAssembly, one CPU thread) in headless Chromium, on
 * the generated test model: today's controller (frozen in
 * todayGhostController.ts) and the one with the suggestion cache and the
 * speculative next suggestion, alternating run by run; then, under a running
 * translation on the same one-engine pool, speculation on vs off. See README.md.
 *
 *   --note=2000          note size in characters
 *   --steps=30           writer steps a run (words, Backspaces, Tab chains)
 *   --reps=4             runs of each controller, alternating
 *   --maxTokens=12       tokens a suggestion
 *   --translationReps=5  runs of speculation on and off under a translation, alternating
 *   --translationSteps=12
 *   --readMs=400         how long the writer reads a complete suggestion before Tab or typing on
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeTinyGguf } from '../../packages/wllama/src/testing/index.js';
import { runPageBench } from '../shared/pageBench.js';
import type { VariantRun, WriterConfig } from './writer/page.js';
import { writerReport } from './writerSummary.js';

const here = dirname(fileURLToPath(import.meta.url));
const arg = (name: string, fallback: number) => Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback);
const config: WriterConfig = {
  model: '/models/chat.gguf',
  note: arg('note', 2000),
  steps: arg('steps', 30),
  reps: arg('reps', 4),
  maxTokens: arg('maxTokens', 12),
  translationReps: arg('translationReps', 5),
  translationSteps: arg('translationSteps', 12),
  readMs: arg('readMs', 400),
};

const runs = await runPageBench<VariantRun[]>(join(here, 'writer'), 'inklingGhostWriter', config, (outDir) => {
  mkdirSync(join(outDir, 'models'), { recursive: true });
  writeFileSync(join(outDir, 'models', 'chat.gguf'), makeTinyGguf({ seed: 1 }));
});
console.log(
  `\nA writer with ghost text, wllama on one CPU thread (${config.steps} steps a run, ${config.reps} runs of each controller, alternating; note ${config.note} chars; reads a suggestion ${config.readMs} ms)\n`,
);
console.log(writerReport(runs));
const results = join(here, '..', 'results');
mkdirSync(results, { recursive: true });
writeFileSync(join(results, 'ghost-writer-cpu.json'), `${JSON.stringify({ date: new Date().toISOString(), config, runs }, null, 2)}\n`);
