export { webllmEngines } from './page/webllmEngines.js';
export { detectWebGPU } from './detectWebGPU.js';
export { isModelCached, deleteModel } from './storage/modelCache.js';
export { defaultModel, f32Variant, findModel, modelCatalogue, needsShaderF16 } from './modelCatalogue.js';
export { hostWebLLM } from './worker/hostWebLLM.js';
export {
  GPUDeviceLostError,
  ModelLoadError,
  ModelNotFoundError,
  ShaderF16UnsupportedError,
  WebGPUUnavailableError,
  WebLLMUnavailableError,
} from './errors.js';
// The failures every engine shares, the same classes as @inkling/scheduler's (here with `device: 'gpu'`).
export { LoadCancelledError, ModelFetchError, ModelUnreadableError, OutOfMemoryError, WorkerCrashedError } from '@inkling/scheduler';
export type { WebLLMEnginesOptions } from './page/webllmEngines.js';
export type { HostWebLLMOptions, WebLLMEngineModule, WorkerEndpoint } from './worker/hostOptions.js';
export type { LoadAnswer, PageMessage, WorkerMessage } from './protocol.js';
export type { DetectWebGPUOptions, GPUAdapterInfoLike, GPUAdapterLike, GPULike, WebGPUSupport } from './detectWebGPU.js';
export type { ModelCacheOptions } from './storage/modelCache.js';
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
export { webllmModelStorage } from './storage/webllmModelStorage.js';
export type { WebLLMModelStorageOptions } from './storage/webllmModelStorage.js';
export type { WebLLMStorageOptions } from './storage/webllmRoom.js';
