export { webllmEngines } from './webllmEngines.js';
export { detectWebGPU } from './detectWebGPU.js';
export { isModelCached, deleteModel } from './modelCache.js';
export { defaultModel, f32Variant, findModel, modelCatalogue, needsShaderF16 } from './modelCatalogue.js';
export { hostWebLLM } from './hostWebLLM.js';
export {
  GPUDeviceLostError,
  LoadCancelledError,
  ModelLoadError,
  ModelNotFoundError,
  OutOfMemoryError,
  ShaderF16UnsupportedError,
  WebGPUUnavailableError,
  WebLLMUnavailableError,
  WorkerCrashedError,
} from './errors.js';
export type { WebLLMEnginesOptions } from './webllmEngines.js';
export type { HostWebLLMOptions, WebLLMEngineModule, WorkerEndpoint } from './hostWebLLM.js';
export type { LoadAnswer, PageMessage, WorkerMessage } from './protocol.js';
export type { DetectWebGPUOptions, GPUAdapterInfoLike, GPUAdapterLike, GPULike, WebGPUSupport } from './detectWebGPU.js';
export type { ModelCacheOptions } from './modelCache.js';
export type { CatalogueModel, ModelFeature } from './modelCatalogue.js';
export type { LoadPhase, WebLLMLoadProgress } from './progressMapper.js';
export type {
  CacheBackend,
  WebLLMAppConfig,
  WebLLMEngineLike,
  WebLLMModelRecord,
  WebLLMModule,
  WebLLMSource,
  WorkerFactory,
  WorkerLike,
} from './types.js';
export { webllmModelStorage } from './webllmModelStorage.js';
export type { WebLLMModelStorageOptions } from './webllmModelStorage.js';
export type { WebLLMStorageOptions } from './webllmRoom.js';
