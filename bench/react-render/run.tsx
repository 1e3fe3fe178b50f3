/**
 * `pnpm bench:react`: renders per streamed token of `useCompletion` and
 * `useGhostText`, against a naive `useState`-per-chunk hook in the same run.
 * Prints a table and writes bench/results/react-render.json.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fmt, table } from '../shared/stats.js';
import { type SceneKind, type SceneResult, TOKENS, TOKENS_PER_SECOND, runScene } from './scene.js';

const here = dirname(fileURLToPath(import.meta.url));
const scenes: SceneKind[] = ['useCompletion', 'useGhostText', 'naive useState per chunk'];
// One round to warm up the JIT (render ms of a cold first scene says little), then the measured one.
for (const scene of scenes) await runScene(scene);
const results: SceneResult[] = [];
for (const scene of scenes) results.push(await runScene(scene));

console.log(
  `\nRenders while a fake engine streams ${TOKENS} tokens at ${TOKENS_PER_SECOND} tokens/s (virtual clock, simulated 60 Hz frames, React development build, <Profiler> commits)\n`,
);
console.log(
  table(
    ['hook', 'tokens', 'stream ms', 'frames', 'renders', 'renders/token', 'renders/frame', 'render ms', 'full text shown'],
    results.map((r) => [
      r.scene,
      String(r.tokens),
      fmt(r.streamMs, 0),
      String(r.frames),
      String(r.renders),
      fmt(r.rendersPerToken, 3),
      fmt(r.rendersPerFrame, 2),
      fmt(r.renderMs, 1),
      r.complete ? 'yes' : 'NO',
    ]),
  ),
);
const naive = results.find((r) => r.scene === 'naive useState per chunk');
if (naive) {
  for (const r of results) {
    if (r !== naive) console.log(`${r.scene}: ${fmt(naive.renders / r.renders, 1)}x fewer renders than the naive hook`);
  }
}

const out = join(here, '..', 'results');
mkdirSync(out, { recursive: true });
const file = join(out, 'react-render.json');
writeFileSync(file, `${JSON.stringify({ date: new Date().toISOString(), node: process.version, frameClock: 'simulated 60 Hz on a virtual clock', results }, null, 2)}\n`);
console.log(`\nwrote ${file}`);
