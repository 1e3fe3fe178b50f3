/**
 * `pnpm --filter @inkling/bench ghost-prefix`: the ghost-prefix benchmark on
 * wllama (llama.cpp in WebAssembly, one CPU thread) in headless Chromium, on
 * the generated test model. See README.md.
 *
 *   --notes=2000,8000,32000   note sizes in characters
 *   --pauses=16               ghost requests per run
 *   --reps=3                  runs of each prompt per note, alternating
 *   --editEvery=8             every n-th pause an edit mid-note (0: typing at the end only)
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeTinyGguf } from '../../packages/wllama/src/testing/index.js';
import { runPageBench } from '../shared/pageBench.js';
import type { CpuConfig } from './cpu/page.js';
import { type VariantRun, report, summarize } from './summarize.js';

const here = dirname(fileURLToPath(import.meta.url));
const arg = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1];
const config: CpuConfig = {
  model: '/models/chat.gguf',
  notes: (arg('notes') ?? '2000,8000,32000').split(',').map(Number),
  pauses: Number(arg('pauses') ?? 16),
  reps: Number(arg('reps') ?? 3),
  editEvery: Number(arg('editEvery') ?? 8),
};

const runs = await runPageBench<VariantRun[]>(join(here, 'cpu'), 'inklingGhostPrefix', config, (outDir) => {
  mkdirSync(join(outDir, 'models'), { recursive: true });
  writeFileSync(join(outDir, 'models', 'chat.gguf'), makeTinyGguf({ seed: 1 }));
});
const rows = summarize(runs);
console.log(
  `\nGhost text at document scale, wllama on one CPU thread (${config.pauses} pauses a run, ${config.reps} runs of each prompt, alternating)\n`,
);
console.log(report(rows));
const results = join(here, '..', 'results');
mkdirSync(results, { recursive: true });
writeFileSync(
  join(results, 'ghost-prefix-cpu.json'),
  `${JSON.stringify({ date: new Date().toISOString(), config, rows, runs }, null, 2)}\n`,
);
