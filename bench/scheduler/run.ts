/**
 * `pnpm bench:scheduler`: what the pool costs per job, and what it buys in
 * the scene it exists for. Prints a table and writes bench/results/scheduler.json.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fmt, table } from '../shared/stats.js';
import { measureOverhead } from './overhead.js';
import { type SceneKind, TIMINGS, runScene } from './scene.js';

const here = dirname(fileURLToPath(import.meta.url));

const overhead = await measureOverhead();
console.log(`\nOverhead per job (${overhead.jobs} jobs, zero-delay fake engine, median of ${overhead.rounds} rounds)\n`);
console.log(
  table(
    ['path', 'total ms', 'per job µs'],
    [
      ['fake engine called directly (baseline)', fmt(overhead.directMs), fmt((overhead.directMs * 1000) / overhead.jobs, 2)],
      ['through EnginePool', fmt(overhead.poolMs), fmt((overhead.poolMs * 1000) / overhead.jobs, 2)],
      ['pool overhead', fmt(overhead.poolMs - overhead.directMs), `${fmt(overhead.overheadPerJobUs, 2)} (x${fmt(overhead.ratio, 2)})`],
    ],
  ),
);

const scenes: SceneKind[] = ['idle', 'inkling-1', 'inkling-1-no-wait', 'inkling-2', 'baseline'];
const results = [];
for (const scene of scenes) results.push(await runScene(scene));
const idle = results[0]!;
console.log(
  `\nGhost text while translating 200 items (virtual clock; prefill ${TIMINGS.prefillMs} ms, ${fmt(1000 / TIMINGS.tokenMs, 0)} tok/s, 8 keys/s, 24-token suggestions)\n`,
);
console.log(
  table(
    ['scene', 'keystroke→first token p50 ms', 'p95 ms', 'p95 vs idle', 'answered pauses', 'items/s', 'preemptions', 'engines'],
    results.map((r) => [
      r.label,
      fmt(r.p50Ms, 0),
      fmt(r.p95Ms, 0),
      `x${fmt(r.p95Ms / idle.p95Ms, 2)}`,
      `${r.answered}/${r.pauses}`,
      r.itemsPerSecond === null ? '—' : fmt(r.itemsPerSecond, 2),
      String(r.preemptions),
      String(r.engines),
    ]),
  ),
);

const out = join(here, '..', 'results');
mkdirSync(out, { recursive: true });
const file = join(out, 'scheduler.json');
writeFileSync(file, `${JSON.stringify({ date: new Date().toISOString(), node: process.version, overhead, scenes: results }, null, 2)}\n`);
console.log(`\nwrote ${file}`);
