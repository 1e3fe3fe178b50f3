import { type CreateEngine, EnginePool } from '@inkling/react';
import { type SimulatedEnginesOptions, simulatedEngines } from '@inkling/react/testing';

/** Which engine the toolbar picked. */
export type EngineKind = 'simulated';

/**
 * The toolbar switch: which engine every story's pool runs on. Only the
 * simulated engine for now (deterministic, no download, no GPU).
 */
export const ENGINE_TOOLBAR = {
  engine: {
    description: 'The engine behind every story',
    toolbar: {
      title: 'Engine',
      icon: 'lightning',
      items: [{ value: 'simulated', title: 'Simulated engine (no model, no GPU)' }],
      dynamicTitle: true,
    },
  },
} as const;

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
export function createStoryPool(settings: StoryPoolSettings, _kind: EngineKind): EnginePool {
  const createEngine = settings.createEngine?.() ?? simulatedEngines(settings.engine);
  return new EnginePool({ createEngine, size: settings.size ?? 1 });
}
