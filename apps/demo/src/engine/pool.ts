import { builtInEngines } from '@inkling/browser-ai';
import { type CreateEngine, EnginePool, type Pool } from '@inkling/react';
import { simulatedEngines } from '@inkling/react/testing';
import { sharedPool } from '@inkling/shared-pool';
import { webllmEngines } from '@inkling/webllm';
import { wllamaEngines } from '@inkling/wllama';
import wasmUrl from '@wllama/wllama/esm/wasm/wllama.wasm?url';
import type { EngineChoice } from './engineChoice.js';

/**
 * The language pair the demo asks Chrome's translator about, and whose model
 * its built-in engine downloads on load: the page translation's default
 * (English notes into French). Other pairs run where their model is already
 * on the device, and are a typed error for each item that names the pair where not.
 */
export const BUILT_IN_PAIR = { from: 'en', to: 'fr' } as const;

const worker = () => new Worker(new URL('./engineWorker.ts', import.meta.url), { type: 'module' });

/**
 * Lanes of the WebGPU engine: the page translation and three more jobs decode
 * together on the one copy of the weights, and ghost text beside them on the
 * sequence the engine keeps for interactive work (the action items' JSON and
 * the chat's tool calls run on WebLLM's own path beside the lanes, one at a
 * time).
 */
const WEBGPU_LANES = 4;

/**
 * Builds engines for a choice (WebLLM and wllama are downloaded only when a
 * real model loads; Chrome's built-in model is downloaded by the browser on
 * its load, which a person's click starts).
 */
function enginesFor(choice: EngineChoice): CreateEngine {
  if (choice.kind === 'simulated') return simulatedEngines();
  if (choice.kind === 'built-in') {
    return builtInEngines({
      prompt: choice.prompt ? {} : false,
      translation: choice.translation ? { languages: [BUILT_IN_PAIR] } : false,
    });
  }
  if (choice.kind === 'cpu') return wllamaEngines({ model: choice.url, wasmUrl });
  if (choice.kind === 'webllm') return webllmEngines({ model: choice.model, worker, lanes: WEBGPU_LANES });
  return webllmEngines({
    model: choice.model,
    worker,
    lanes: WEBGPU_LANES,
    appConfig: { model_list: [{ model_id: choice.model, model: choice.modelUrl, model_lib: choice.libUrl }] },
  });
}

let current: CreateEngine = simulatedEngines();
const createEngine: CreateEngine = (index, onProgress, options) => current(index, onProgress, options);

/**
 * The app's pools, built at module scope: ghost text and the page
 * translation share their engines. Which engines they build follows the
 * model picker (`switchEngine`). The WebGPU pool is one engine of lanes (one
 * copy of the weights; see `WEBGPU_LANES`); the simulated pool has up to two
 * one-lane engines, as WebLLM without lanes would; the CPU pool one, since
 * every wllama engine holds its own copy of the weights in the page's memory
 * and a second would only compete for the same cores;
 * the built-in pool one, since the browser runs its model once for the whole
 * page (a second engine would only hold a second translator and sessions).
 */
const shared = new URLSearchParams(location.search).get('pool') === 'shared';
const pools: { gpu: Pool; webgpu: EnginePool; cpu: EnginePool; builtIn: EnginePool } = {
  gpu: shared
    ? // Opt-in: every tab of the demo shares one simulated pool (the model picker does not reach it).
      sharedPool({
        name: 'inkling-demo',
        worker: () => new SharedWorker(new URL('./poolHost.ts', import.meta.url), { type: 'module', name: 'inkling-demo' }),
        pool: { size: 2, createEngine: simulatedEngines() },
        view: 'all', // as the worker's: the inspector shows every tab's jobs
      })
    : new EnginePool({ size: 2, createEngine }),
  webgpu: new EnginePool({ size: 1, createEngine }),
  cpu: new EnginePool({ size: 1, createEngine }),
  builtIn: new EnginePool({ size: 1, createEngine }),
};

/** The pool that runs `choice`. */
export function poolFor(choice: EngineChoice): Pool {
  if (choice.kind === 'built-in') return pools.builtIn;
  if (choice.kind === 'cpu') return pools.cpu;
  // The shared pool is simulated whatever the picker says.
  return choice.kind === 'simulated' || shared ? pools.gpu : pools.webgpu;
}

/** Makes the pools' next load build `choice`'s engines (at start-up, before anything loaded). */
export function selectEngines(choice: EngineChoice): void {
  current = enginesFor(choice);
}

/** Unloads the engines the pools have and makes the next load build `choice`'s. */
export async function switchEngine(choice: EngineChoice): Promise<void> {
  await Promise.all([pools.gpu.unload(), pools.webgpu.unload(), pools.cpu.unload(), pools.builtIn.unload()]);
  selectEngines(choice);
}
