import { type CreateEngine, EnginePool } from '@inkling/react';
import { simulatedEngines } from '@inkling/react/testing';
import type { EngineChoice } from './engineChoice.js';

/** Builds engines for a choice; WebLLM is imported only when a real model is chosen. */
function enginesFor(choice: EngineChoice): CreateEngine {
  if (choice.kind === 'simulated') return simulatedEngines();
  const factory = import('@inkling/webllm').then(({ webllmEngines }) =>
    choice.kind === 'webllm'
      ? webllmEngines({ model: choice.model })
      : webllmEngines({
          model: choice.model,
          appConfig: { model_list: [{ model_id: choice.model, model: choice.modelUrl, model_lib: choice.libUrl }] },
        }),
  );
  return async (index, onProgress, options) => (await factory)(index, onProgress, options);
}

let current: CreateEngine = simulatedEngines();

/**
 * The app's one pool, built at module scope: ghost text and the page
 * translation share its two engines. Which engines it builds follows the
 * model picker (`switchEngine`).
 */
export const pool = new EnginePool({ size: 2, createEngine: (index, onProgress, options) => current(index, onProgress, options) });

/** Makes the pool's next load build `choice`'s engines (at start-up, before anything loaded). */
export function selectEngines(choice: EngineChoice): void {
  current = enginesFor(choice);
}

/** Unloads the engines the pool has and makes the next load build `choice`'s. */
export async function switchEngine(choice: EngineChoice): Promise<void> {
  await pool.unload();
  selectEngines(choice);
}
