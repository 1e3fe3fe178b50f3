import { builtInEngines, detectBuiltInAI, promptEngines } from '@inkling/browser-ai';
import { type CreateEngine, EnginePool } from '@inkling/react';
import { type SimulatedEnginesOptions, simulatedEngines } from '@inkling/react/testing';
import { defaultModel, modelCatalogue, webllmEngines } from '@inkling/webllm';

/** Which engine the toolbar picked. */
export type EngineKind = 'simulated' | 'webllm' | 'built-in';

/** The model a real engine loads, from the toolbar. Default: the catalogue's pick for ghost text (f32, runs anywhere). */
export const DEFAULT_MODEL = defaultModel('ghostText');

/**
 * The toolbar switches: which engine every story's pool runs on (the
 * simulated one by default: deterministic, no download, no GPU; real
 * WebLLM, which downloads the model and needs WebGPU; or Chrome's built-in
 * model, where the browser has it), and which model WebLLM loads.
 */
export const ENGINE_TOOLBAR = {
  engine: {
    description: 'The engine behind every story',
    toolbar: {
      title: 'Engine',
      icon: 'lightning',
      items: [
        { value: 'simulated', title: 'Simulated engine (no model, no GPU)' },
        // Marked: it runs only where WebGPU does, and says why not in each story where it does not.
        { value: 'webllm', title: 'Real WebLLM (downloads the model; needs WebGPU)', right: '⚠ WebGPU only' },
        { value: 'built-in', title: "Chrome's built-in model (desktop Chrome and Edge; where it is ready)" },
      ],
      dynamicTitle: true,
    },
  },
  model: {
    description: 'The WebLLM model, used only when the engine is real WebLLM',
    toolbar: {
      // Not shown by name next to "Simulated": it is a download for the real engine, smallest first.
      title: 'WebLLM model (real engine only)',
      icon: 'database',
      items: modelCatalogue
        .filter((m) => m.kind === 'llm')
        .toSorted((a, b) => a.vramRequiredMB - b.vramRequiredMB)
        .map((m) => ({
          value: m.id,
          title: m.id.replace(/-MLC$/, ''),
          right: `${Math.round(m.vramRequiredMB).toLocaleString('en')} MB download`,
        })),
      dynamicTitle: false,
    },
  },
} as const;

/**
 * Chrome's built-in model for a story: the parts `detectBuiltInAI` finds
 * ready (a story loads on mount, and Chrome downloads only on a person's
 * click), translation pairs made on first use. Where neither is ready, the
 * Prompt API's load fails with its typed reason, which the story shows.
 */
function builtInStoryEngines(): CreateEngine {
  return async (index, onProgress, options) => {
    const probe = await detectBuiltInAI();
    const prompt = probe.prompt.state === 'available';
    const translation = probe.translation.state === 'available';
    const create = prompt || translation ? builtInEngines({ prompt: prompt && {}, translation: translation && {} }) : promptEngines();
    return create(index, onProgress, options);
  };
}

const worker = () => new Worker(new URL('./engineWorker.ts', import.meta.url), { type: 'module' });

/** How a story wants its pool: `parameters.inkling`, and the playground's args. */
export interface StoryPoolSettings {
  /** Most engines. Default `1`. */
  size?: number;
  /** Options of the simulated engine (speeds, load time, reply, failing loads). */
  engine?: SimulatedEnginesOptions;
  /** Load on mount. Default `true`. */
  load?: boolean;
  /** A `createEngine` of the story's own (a load that reports bytes, say); wins over `engine`. */
  createEngine?: () => CreateEngine;
}

/**
 * A fresh pool for one story on the engine the toolbar picked.
 *
 * @example
 * const pool = createStoryPool({ size: 2, engine: { tokenMs: 20 } }, 'simulated');
 */
export function createStoryPool(settings: StoryPoolSettings, kind: EngineKind, model: string = DEFAULT_MODEL): EnginePool {
  // A story's own engine (a failing load, a stalled download) shows a state, whatever the toolbar says.
  const createEngine =
    settings.createEngine?.() ??
    (kind === 'webllm'
      ? webllmEngines({ model, worker })
      : kind === 'built-in'
        ? builtInStoryEngines()
        : simulatedEngines(settings.engine));
  return new EnginePool({ createEngine, size: settings.size ?? 1 });
}
