import { type CreateEngine, EnginePool, type Pool } from '@inkling/react';
import { simulatedEngines } from '@inkling/react/testing';
import { sharedPool } from '@inkling/shared-pool';
import { webllmEngines } from '@inkling/webllm';
import type { EngineChoice } from './engineChoice.js';

const worker = () => new Worker(new URL('./engineWorker.ts', import.meta.url), { type: 'module' });

/** Builds engines for a choice (WebLLM itself is downloaded only when a real model loads). */
function enginesFor(choice: EngineChoice): CreateEngine {
  if (choice.kind === 'simulated') return simulatedEngines();
  if (choice.kind === 'webllm') return webllmEngines({ model: choice.model, worker });
  return webllmEngines({
    model: choice.model,
    worker,
    appConfig: { model_list: [{ model_id: choice.model, model: choice.modelUrl, model_lib: choice.libUrl }] },
  });
}

let current: CreateEngine = simulatedEngines();

/**
 * The app's one pool, built at module scope: ghost text and the page
 * translation share its two engines. Which engines it builds follows the
 * model picker (`switchEngine`).
 */
export const pool: Pool = new URLSearchParams(location.search).get('pool') === 'shared'
  ? // Opt-in: every tab of the demo shares one simulated pool (the model picker does not reach it).
    sharedPool({
      name: 'inkling-demo',
      worker: () => new SharedWorker(new URL('./poolHost.ts', import.meta.url), { type: 'module', name: 'inkling-demo' }),
      pool: { size: 2, createEngine: simulatedEngines() },
    })
  : new EnginePool({ size: 2, createEngine: (index, onProgress, options) => current(index, onProgress, options) });

/** Makes the pool's next load build `choice`'s engines (at start-up, before anything loaded). */
export function selectEngines(choice: EngineChoice): void {
  current = enginesFor(choice);
}

/** Unloads the engines the pool has and makes the next load build `choice`'s. */
export async function switchEngine(choice: EngineChoice): Promise<void> {
  await pool.unload();
  selectEngines(choice);
}
