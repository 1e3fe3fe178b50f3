import type { EngineChoice } from './engineChoice.js';

/** An engine the demo offers where WebGPU is missing. */
export interface EngineOffer {
  choice: EngineChoice;
  /** The button's words. */
  label: string;
  /** One sentence on what a person gets. */
  description: string;
}

/**
 * What runs without WebGPU, best first. A real CPU engine goes first in this
 * list once one exists (with its kind in `EngineChoice` and its engines in
 * `pool.ts`); the simulated engine stays as the labelled fallback.
 */
export const NO_WEBGPU_OFFERS: readonly EngineOffer[] = [
  {
    choice: { kind: 'simulated' },
    label: 'Use the simulated engine',
    description: 'No model runs: a fake engine makes up plausible text at a realistic speed, and the scheduling is real.',
  },
];
