export { wllamaEngines } from './wllamaEngines.js';
export {
  LoadCancelledError,
  ModelFetchError,
  ModelLoadError,
  OutOfMemoryError,
  WasmMissingError,
  WasmUnsupportedError,
  WorkerCrashedError,
} from './errors.js';
export type { PromptCacheStats, WllamaEngine, WllamaEnginesOptions, WllamaLoadProgress } from './types.js';
export { supportsWasm64 } from './supportsWasm64.js';
export { chooseEngineKind, chooseEngines } from './chooseEngines.js';
export { cpuModelCatalogue, defaultCpuModel } from './cpuModelCatalogue.js';
export type { ChooseEngineKindOptions, ChooseEnginesOptions, EngineChoice, EngineKind, WebGPUProbe } from './chooseEngines.js';
export type { CpuCatalogueModel, CpuModelFeature } from './cpuModelCatalogue.js';
export { wllamaModelStorage } from './storage/wllamaModelStorage.js';
export type { WllamaModelStorageOptions } from './storage/wllamaModelStorage.js';
