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
