import { defaultGhostParams } from '@inkling/react';
import { EnginePool } from '@inkling/scheduler';
import { wllamaEngines } from '@inkling/wllama';
import wasmUrl from '@wllama/wllama/esm/wasm/wllama.wasm?url';
import { legacyGhostParams } from '../legacyGhostParams.js';
import { type BuildGhostParams, replay } from '../replay.js';
import type { VariantRun } from '../summarize.js';
import { makeNote, typingSession } from '../typingSession.js';

export interface CpuConfig {
  model: string;
  notes: number[];
  pauses: number;
  reps: number;
}

declare global {
  interface Window {
    inklingGhostPrefix: (config: CpuConfig) => Promise<VariantRun[]>;
  }
}

const variants: Array<[VariantRun['variant'], BuildGhostParams]> = [
  ['legacy', legacyGhostParams],
  ['prefix-stable', defaultGhostParams],
];

window.inklingGhostPrefix = async ({ model, notes, pauses, reps }) => {
  const pool = new EnginePool({ createEngine: wllamaEngines({ model, wasmUrl, seed: 7, contextSize: 4096 }), size: 1 });
  await pool.load();
  const runs: VariantRun[] = [];
  for (const note of notes) {
    for (let rep = 0; rep < reps; rep += 1) {
      // A new session each round: llama.cpp keeps whole prompts it has seen, so a replay would hit them.
      const session = typingSession(makeNote(note, rep + 1), pauses, { seed: 100 + rep });
      // Alternate which prompt goes first, so neither always follows the other's cache.
      for (const [variant, build] of rep % 2 === 0 ? variants : variants.toReversed()) {
        runs.push({ note, variant, rep, pauses: await replay(pool, build, session) });
      }
    }
  }
  await pool.unload();
  return runs;
};
