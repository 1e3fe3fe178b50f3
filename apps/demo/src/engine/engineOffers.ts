import type { EngineChoice } from './engineChoice.js';
import { CPU_MODELS, cpuModelLabel } from './cpuModels.js';

/** An engine the demo offers where WebGPU is missing. */
export interface EngineOffer {
  choice: EngineChoice;
  /** The button's words. */
  label: string;
  /** One sentence on what a person gets. */
  description: string;
}

const cpu = CPU_MODELS[0]!;

/**
 * What runs without WebGPU, best first: a real model on the CPU (llama.cpp in
 * WebAssembly), downloaded only once a person presses its button, then the
 * simulated engine as the labelled fallback.
 */
export const NO_WEBGPU_OFFERS: readonly EngineOffer[] = [
  {
    choice: cpu.choice,
    label: `Run a model on the CPU (${cpuModelLabel(cpu)})`,
    description:
      cpu.sizeMB === null
        ? 'A real model runs on this device\u2019s processor (llama.cpp in WebAssembly); it downloads when you press.'
        : `A real model runs on this device\u2019s processor (llama.cpp in WebAssembly): slower than a GPU; pressing downloads ${Math.round(cpu.sizeMB)} MB once.`,
  },
  {
    choice: { kind: 'simulated' },
    label: 'Use the simulated engine',
    description: 'No model runs: a fake engine makes up plausible text at a realistic speed, and the scheduling is real.',
  },
];
