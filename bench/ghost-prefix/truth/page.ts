import { EnginePool } from '@inkling/scheduler';
import { wllamaEngines } from '@inkling/wllama';
import wasmUrl from '@wllama/wllama/esm/wasm/wllama.wasm?url';
import { type TruthRun, truthReplay } from '../truthReplay.js';

declare global {
  interface Window {
    inklingEventsTruth: (config: { seeds: number; steps: number; trace?: boolean }) => Promise<(TruthRun & { trace?: string[] })[]>;
  }
}

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

window.inklingEventsTruth = async ({ seeds, steps, trace }) => {
  const pool = new EnginePool({
    createEngine: wllamaEngines({ model: '/models/chat.gguf', wasmUrl, seed: 7, contextSize: 2048 }),
    size: 1,
  });
  await pool.load();
  const runs: (TruthRun & { trace?: string[] })[] = [];
  for (let seed = 1; seed <= seeds; seed += 1) {
    // `trace`: the screen and the events written down line by line (to find where the accounts part).
    const lines: string[] = [];
    const told = trace ? (line: string) => lines.push(`${Math.round(performance.now())} ${line}`) : undefined;
    const run = await truthReplay(pool, { seed, steps, wait, now: () => performance.now(), trace: told });
    runs.push(told ? { ...run, trace: lines } : run);
  }
  await pool.unload();
  return runs;
};
