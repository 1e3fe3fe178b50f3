/**
 * `pnpm bench:react`: renders per streamed token of `useCompletion` and
 * `useGhostText`, against a naive `useState`-per-chunk hook in the same run;
 * then main-thread time per item of `<TranslateList>` at 200 and 2,000 items,
 * alternating, so the two sizes share the machine's state. Prints tables and
 * writes bench/results/react-render.json.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fmt, median, table } from '../shared/stats.js';
import { LIST_TOKEN_MS, type ListSceneResult, runListScene } from './listScene.js';
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

// Lists: does the cost per item stay put as the list grows?
const LIST_SIZES = [200, 2000] as const;
const REPETITIONS = 5;
await runListScene(LIST_SIZES[0]); // warm-up
const lists: ListSceneResult[] = [];
for (let round = 0; round < REPETITIONS; round += 1) {
  for (const size of LIST_SIZES) lists.push(await runListScene(size));
}
console.log(
  `\n<TranslateList> on a fake engine at ${LIST_TOKEN_MS} ms a token: CPU time from the first render to the batch shown done, ${REPETITIONS} alternating runs per size (React development build)\n`,
);
const perSize = LIST_SIZES.map((size) => {
  const runs = lists.filter((r) => r.items === size);
  const perItem = runs.map((r) => r.perItemMs);
  return { size, runs, perItem, median: median(perItem) };
});
console.log(
  table(
    ['items', 'ms/item min', 'ms/item median', 'ms/item max', 'renders', 'virtual ms', 'all shown'],
    perSize.map(({ size, runs, perItem, median: m }) => [
      String(size),
      fmt(Math.min(...perItem), 2),
      fmt(m, 2),
      fmt(Math.max(...perItem), 2),
      String(runs[0]?.renders ?? 0),
      String(runs[0]?.virtualMs ?? 0),
      runs.every((r) => r.complete) ? 'yes' : 'NO',
    ]),
  ),
);
const [small, large] = perSize;
const listRatio = small && large ? large.median / small.median : Number.NaN;
console.log(`per item, ${LIST_SIZES[1]} items vs ${LIST_SIZES[0]} (medians): ${fmt(listRatio, 2)}x (linear: 1x; goal: at most 1.5x)`);

const out = join(here, '..', 'results');
mkdirSync(out, { recursive: true });
const file = join(out, 'react-render.json');
writeFileSync(
  file,
  `${JSON.stringify({ date: new Date().toISOString(), node: process.version, frameClock: 'simulated 60 Hz on a virtual clock', results, lists, listRatio }, null, 2)}\n`,
);
console.log(`\nwrote ${file}`);
