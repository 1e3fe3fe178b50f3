export { wllamaEngines } from './wllamaEngines.js';
export { ModelLoadError, WasmMissingError, WasmUnsupportedError } from './errors.js';
// The failures every engine shares, the same classes as @inkling/scheduler's (here with `device: 'cpu'`).
export { LoadCancelledError, ModelFetchError, ModelUnreadableError, OutOfMemoryError, WorkerCrashedError } from '@inkling/scheduler';
export type { PromptCacheStats, WllamaEngine, WllamaEnginesOptions, WllamaLoadProgress } from './types.js';
export { supportsWasm64 } from './supportsWasm64.js';
export { chooseEngineKind, chooseEngines } from './chooseEngines.js';
export { cpuModelCatalogue, defaultCpuModel } from './cpuModelCatalogue.js';
export type { ChooseEngineKindOptions, ChooseEnginesOptions, EngineChoice, EngineKind, WebGPUProbe } from './chooseEngines.js';
export type { CpuCatalogueModel, CpuModelFeature } from './cpuModelCatalogue.js';
export { wllamaModelStorage } from './storage/wllamaModelStorage.js';
export type { WllamaModelStorageOptions } from './storage/wllamaModelStorage.js';
