import type { CreateEngine } from '@inkling/scheduler';

/**
 * What a WebGPU probe found, in the shape `detectWebGPU()` of
 * `@inkling/webllm` returns (only these fields are read), so this package
 * needs no WebLLM to take it.
 */
export interface WebGPUProbe {
  supported: boolean;
  reason?: string | null;
  adapter?: { isFallbackAdapter?: boolean; description?: string } | null;
}

/** Which engine runs on this device. */
export type EngineKind = 'webgpu' | 'cpu';

/** What `chooseEngineKind` decided, and why, in words for a settings screen. */
export interface EngineChoice {
  kind: EngineKind;
  reason: string;
}

/** Options of `chooseEngineKind`. */
export interface ChooseEngineKindOptions {
  /**
   * Take WebGPU even when its adapter is a software fallback (SwiftShader,
   * WARP): correct, but far slower than wllama on the same CPU. Default `false`.
   */
  allowFallbackAdapter?: boolean;
}

/**
 * Decides between WebLLM on WebGPU and wllama on the CPU from a WebGPU probe:
 * WebGPU with a real adapter → `'webgpu'`; no WebGPU, no adapter, or a
 * software fallback adapter → `'cpu'`.
 *
 * It lives here, and takes the probe rather than making it, because engine
 * packages depend only on `@inkling/scheduler`: the app (which has both
 * `@inkling/webllm` and `@inkling/wllama`) runs `detectWebGPU()` and hands
 * the result over.
 *
 * @example
 * const choice = chooseEngineKind(await detectWebGPU());
 * console.log(choice.kind, choice.reason);
 */
export function chooseEngineKind(probe: WebGPUProbe, options: ChooseEngineKindOptions = {}): EngineChoice {
  if (!probe.supported) {
    return { kind: 'cpu', reason: `No WebGPU (${probe.reason ?? 'no adapter'}): running llama.cpp on the CPU.` };
  }
  if (probe.adapter?.isFallbackAdapter && !options.allowFallbackAdapter) {
    return { kind: 'cpu', reason: 'WebGPU has only a software adapter here, slower than llama.cpp on the CPU.' };
  }
  const name = probe.adapter?.description ? ` (${probe.adapter.description})` : '';
  return { kind: 'webgpu', reason: `WebGPU is available${name}: running WebLLM on the GPU.` };
}

/** Options of `chooseEngines`. */
export interface ChooseEnginesOptions extends ChooseEngineKindOptions {
  /** The WebGPU probe, e.g. `await detectWebGPU()`. Required. */
  probe: WebGPUProbe;
  /** Builds the WebGPU engines, e.g. `() => webllmEngines({ model })`. Called only when chosen. Required. */
  webgpu: () => CreateEngine;
  /** Builds the CPU engines, e.g. `() => wllamaEngines({ model, wasmUrl })`. Called only when chosen. Required. */
  cpu: () => CreateEngine;
}

/**
 * Picks the engines for this device in one call (see `chooseEngineKind`) and
 * builds only the chosen ones.
 *
 * @example
 * import { detectWebGPU, defaultModel, webllmEngines } from '@inkling/webllm';
 * import { chooseEngines, defaultCpuModel, wllamaEngines } from '@inkling/wllama';
 * import wasmUrl from '@wllama/wllama/esm/wasm/wllama.wasm?url';
 *
 * const gpu = await detectWebGPU();
 * const { createEngine, kind, reason } = chooseEngines({
 *   probe: gpu,
 *   webgpu: () => webllmEngines({ model: defaultModel('ghostText', { shaderF16: gpu.shaderF16 }) }),
 *   cpu: () => wllamaEngines({ model: defaultCpuModel('ghostText').url, wasmUrl }),
 * });
 * const pool = new EnginePool({ createEngine, size: kind === 'cpu' ? 1 : 2 });
 */
export function chooseEngines(options: ChooseEnginesOptions): EngineChoice & { createEngine: CreateEngine } {
  const choice = chooseEngineKind(options.probe, options);
  return { ...choice, createEngine: choice.kind === 'webgpu' ? options.webgpu() : options.cpu() };
}
