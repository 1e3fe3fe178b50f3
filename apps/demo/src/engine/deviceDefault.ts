import { type WebGPUSupport, defaultModel } from '@inkling/webllm';
import { chooseEngineKind } from '@inkling/wllama';
import { CPU_MODELS } from './cpuModels.js';
import type { EngineChoice } from './engineChoice.js';

/**
 * Whether WebGPU works here but only on a software adapter (SwiftShader,
 * WARP): WebLLM would run, at seconds a token, so the CPU engine is offered
 * first. `chooseEngineKind` decides, as it would for any app.
 */
export function softwareGpu(gpu: WebGPUSupport | null): boolean {
  return gpu?.supported === true && chooseEngineKind(gpu).kind === 'cpu';
}

/**
 * The model a first visit starts with (it waits for "Load model"): the CPU
 * model on a software adapter, else WebLLM's default (which, without WebGPU,
 * the picker shows as not runnable and the notice offers what runs).
 */
export function deviceDefault(gpu: WebGPUSupport | null): EngineChoice {
  return softwareGpu(gpu) ? CPU_MODELS[0]!.choice : { kind: 'webllm', model: defaultModel('ghostText') };
}
