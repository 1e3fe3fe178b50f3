/**
 * `pnpm --filter @inkling/bench ai-sdk`: ghost text's first token while two
 * AI SDK chats stream on one engine, through the Inkling provider and without
 * the pool, on a virtual clock. Five typing seeds, each scene alternating with
 * the others, idle measured twice per seed as the noise check.
 */
import { fmt, median, table } from '../shared/stats.js';
import { type AiSdkScene, type AiSdkSceneResult, CHAT_WORDS, LABELS, TIMINGS, runAiSdkScene } from './scene.js';

const SEEDS = [7, 11, 23, 42, 101];
const scenes: AiSdkScene[] = ['idle', 'inkling-preemptible', 'inkling-defaults', 'inkling-defaults-2', 'baseline', 'idle'];
const rows: Array<{ scene: AiSdkScene; runs: AiSdkSceneResult[] }> = scenes.map((scene) => ({ scene, runs: [] }));
for (const seed of SEEDS) {
  for (const row of rows) row.runs.push(await runAiSdkScene(row.scene, seed));
}
const idle = rows[0]!.runs;
const ratios = (runs: AiSdkSceneResult[], key: 'p50Ms' | 'p95Ms') => runs.map((r, i) => r[key] / idle[i]![key]);
const spread = (values: number[]) => `x${fmt(Math.min(...values), 2)} / x${fmt(median(values), 2)} / x${fmt(Math.max(...values), 2)}`;
console.log(
  `\nGhost text beside two AI SDK chats on one engine (virtual clock; prefill ${TIMINGS.prefillMs} ms, ${fmt(1000 / TIMINGS.tokenMs, 0)} tok/s, ${CHAT_WORDS}-token chat replies, 60 s of typing at 8 keys/s; ${SEEDS.length} seeds)\n`,
);
console.log(
  table(
    [
      'scene',
      'first token p50 ms (median)',
      'p95 ms (median)',
      'p50 vs idle min/med/max',
      'p95 vs idle min/med/max',
      'answered',
      'chat turns',
      'chat cut',
      'chat tok/s',
      'engines',
    ],
    rows.map(({ scene, runs }) => [
      LABELS[scene],
      fmt(median(runs.map((r) => r.p50Ms)), 0),
      fmt(median(runs.map((r) => r.p95Ms)), 0),
      spread(ratios(runs, 'p50Ms')),
      spread(ratios(runs, 'p95Ms')),
      `${runs.reduce((n, r) => n + r.answered, 0)}/${runs.reduce((n, r) => n + r.pauses, 0)}`,
      String(median(runs.map((r) => r.chatTurns))),
      String(median(runs.map((r) => r.chatInterrupted))),
      fmt(median(runs.map((r) => r.chatTokensPerSecond)), 1),
      String(Math.max(...runs.map((r) => r.engines))),
    ]),
  ),
);
