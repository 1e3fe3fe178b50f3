import { EnginePool } from '@inkling/scheduler';
import { wllamaEngines } from '@inkling/wllama';
import wasmUrl from '@wllama/wllama/esm/wasm/wllama.wasm?url';
import { type TruthRun, truthReplay } from '../truthReplay.js';

declare global {
  interface Window {
    inklingEventsTruth: (config: { seeds: number; steps: number }) => Promise<TruthRun[]>;
  }
}

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

window.inklingEventsTruth = async ({ seeds, steps }) => {
  const pool = new EnginePool({
    createEngine: wllamaEngines({ model: '/models/chat.gguf', wasmUrl, seed: 7, contextSize: 2048 }),
    size: 1,
  });
  await pool.load();
  const runs: TruthRun[] = [];
  for (let seed = 1; seed <= seeds; seed += 1) runs.push(await truthReplay(pool, { seed, steps, wait, now: () => performance.now() }));
  await pool.unload();
  return runs;
};
