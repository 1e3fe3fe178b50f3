/**
 * `pnpm bench:wllama`: wllama (llama.cpp in WebAssembly, one CPU thread) in headless Chromium on
 * the generated ~8M-parameter test model. Decode tok/s through the pool against the same engine
 * driven raw (alternating, with the spread of two raw runs as the noise), cancel to final chunk,
 * and first token of the ghost-text prompt idle and under a running translation, with the prompt
 * tokens llama.cpp read and reused per keystroke.
 *
 *   --reps=N                 repetitions (default 5)
 *   --ghost-prompt=a,b       builders from bench/wllama/ghostPrompts.ts to compare (default: default)
 *   --ghost-chars=800,1600   characters before the caret, one series each (default 800,1600)
 *
 * Prints tables; writes bench/results/wllama.json.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeTinyGguf } from '../../packages/wllama/src/testing/index.js';
import { runPageBench } from '../shared/pageBench.js';
import { type BenchResult, report } from './report.js';

const here = dirname(fileURLToPath(import.meta.url));
const arg = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1];
const repetitions = Number(arg('reps') ?? 5);
const ghostPrompts = (arg('ghost-prompt') ?? 'default').split(',');
// Under the default prompt's 1,500-character window, and past it (where the window slides).
const ghostChars = (arg('ghost-chars') ?? '800,1600').split(',').map(Number);

const result = await runPageBench<BenchResult>(
  here,
  'inklingWllamaBench',
  { model: '/models/chat.gguf', repetitions, decodeTokens: 128, ghostPrompts, ghostChars },
  (outDir) => {
    mkdirSync(join(outDir, 'models'), { recursive: true });
    writeFileSync(join(outDir, 'models', 'chat.gguf'), makeTinyGguf({ seed: 1 }));
  },
);

const summary = report(result, repetitions);
const results = join(here, '..', 'results');
mkdirSync(results, { recursive: true });
writeFileSync(
  join(results, 'wllama.json'),
  `${JSON.stringify({ date: new Date().toISOString(), repetitions, summary, raw: result }, null, 2)}\n`,
);
console.log(`wrote ${join(results, 'wllama.json')}`);
