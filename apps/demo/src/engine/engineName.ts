import type { EngineChoice } from './engineChoice.js';

/**
 * A model id as people read it: without the quantisation and format tags
 * (`-q4f16_1-MLC`, `-q8_0`, `-Q4_K_M`), which say nothing to them.
 *
 * @example
 * modelName('Qwen2.5-0.5B-Instruct-q4f16_1-MLC'); // 'Qwen2.5-0.5B-Instruct'
 */
export function modelName(id: string): string {
  return id.replace(/-(q\d+f\d+(_\d+)?(-MLC)?(-b\d+)?|q8_0|Q4_K_M|MLC)$/i, '');
}

/** What a choice runs on, for the header's line: "the simulated engine", "SmolLM2-360M-Instruct on the CPU". */
export function engineName(choice: EngineChoice): string {
  if (choice.kind === 'simulated') return 'Simulated engine';
  if (choice.kind === 'built-in') return 'Chrome\u2019s built-in model';
  if (choice.kind === 'cpu') return `${modelName(choice.model)} on the CPU`;
  if (choice.kind === 'self-hosted') return `${choice.model} (self-hosted)`;
  return `${modelName(choice.model)} on the GPU`;
}
