export { wllamaEngines } from './wllamaEngines.js';
export {
  LoadCancelledError,
  ModelFetchError,
  ModelLoadError,
  OutOfMemoryError,
  WasmMissingError,
  WorkerCrashedError,
} from './errors.js';
export type { WllamaEngine, WllamaEnginesOptions, WllamaLoadProgress } from './types.js';
export { chooseEngineKind, chooseEngines } from './chooseEngines.js';
export { cpuModelCatalogue, defaultCpuModel } from './cpuModelCatalogue.js';
export type { ChooseEngineKindOptions, ChooseEnginesOptions, EngineChoice, EngineKind, WebGPUProbe } from './chooseEngines.js';
export type { CpuCatalogueModel, CpuModelFeature } from './cpuModelCatalogue.js';
