/**
 * Do the ghost-text events tell what the writer saw? `truthReplay.ts` on the
 * simulated engine (in Node, virtual time) and, with `--wllama`, on wllama
 * (llama.cpp in WebAssembly, one CPU thread, the generated test model) in
 * headless Chromium, in real time. Per seed: suggestions shown, characters
 * accepted and Escapes by the screen and by the events, the events by type,
 * and any fault of "every shown suggestion accounted for once".
 *
 *   pnpm --filter @inkling/bench exec tsx --conditions=@inkling/source ghost-prefix/eventsTruth.ts [--seeds 5] [--steps 60] [--wllama [--trace]]
 */
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { mkdirSync, writeFileSync } from 'node:fs';
import FakeTimers from '@sinonjs/fake-timers';
import { EnginePool } from '@inkling/scheduler';
import { simulatedEngines } from '../../packages/react/src/testing/simulatedEngines.js';
import { makeTinyGguf } from '../../packages/wllama/src/testing/index.js';
import { runPageBench } from '../shared/pageBench.js';
import { type TruthRun, truthReplay, truthTable } from './truthReplay.js';

const here = dirname(fileURLToPath(import.meta.url));
const arg = (name: string, fallback: number) => {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 ? Number(process.argv[at + 1]) : fallback;
};
const SEEDS = arg('seeds', 5);
const STEPS = arg('steps', 60);
const TOKEN_MS = arg('tokenMs', 35);

async function simulated(seed: number): Promise<TruthRun> {
  const clock = FakeTimers.install({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date', 'performance'] });
  try {
    const pool = new EnginePool({ createEngine: simulatedEngines({ tokenMs: TOKEN_MS }), size: 1 });
    const loading = pool.load();
    await clock.tickAsync(5_000);
    await loading;
    const trace = process.env.TRACE === String(seed) ? (line: string) => console.log(line) : undefined;
    const run = await truthReplay(pool, {
      seed,
      steps: STEPS,
      wait: (ms) => clock.tickAsync(ms).then(() => {}),
      now: () => Date.now(),
      trace,
    });
    await clock.runAllAsync();
    await pool.unload();
    return run;
  } finally {
    clock.uninstall();
  }
}

const runs: TruthRun[] = [];
for (let seed = 1; seed <= SEEDS; seed += 1) runs.push(await simulated(seed));
console.log(`\nSimulated engine (150 ms to the first token, ${TOKEN_MS} ms a token), virtual time, ${SEEDS} seeds of ${STEPS} steps\n`);
console.log(truthTable('simulated', runs));

let wllama: TruthRun[] = [];
if (process.argv.includes('--wllama')) {
  const traced = process.argv.includes('--trace');
  const pageRuns = await runPageBench<(TruthRun & { trace?: string[] })[]>(
    join(here, 'truth'),
    'inklingEventsTruth',
    { seeds: SEEDS, steps: STEPS, trace: traced },
    (outDir) => {
      mkdirSync(join(outDir, 'models'), { recursive: true });
      writeFileSync(join(outDir, 'models', 'chat.gguf'), makeTinyGguf({ seed: 1 }));
    },
  );
  wllama = pageRuns.map(({ trace: lines, ...run }) => {
    // Only where the accounts part.
    if (lines && JSON.stringify(run.truth) !== JSON.stringify(run.events)) console.log(`\nseed ${run.seed}\n${lines.join('\n')}`);
    return run;
  });
  console.log(`\nwllama, one CPU thread, the generated test model, headless Chromium, real time, ${SEEDS} seeds of ${STEPS} steps\n`);
  console.log(truthTable('wllama', wllama));
}
const faults = [...runs, ...wllama].filter((run) => run.faults.length || JSON.stringify(run.truth) !== JSON.stringify(run.events));
console.log(`\n${faults.length === 0 ? 'Every run: the events match the screen exactly.' : `${faults.length} run(s) where they do not.`}`);
const results = join(here, '..', 'results');
mkdirSync(results, { recursive: true });
writeFileSync(
  join(results, 'ghost-events-truth.json'),
  `${JSON.stringify({ date: new Date().toISOString(), steps: STEPS, runs, wllama }, null, 2)}\n`,
);
