export { EnginePool } from './enginePool.js';
export { JOB_KIND, PRIORITY, PRIORITY_ORDER } from './constants.js';
export { MAX_TIMER_MS, checkDuration } from './duration.js';
export { globalTimers } from './globalTimers.js';
export { languageName, translationRequest } from './translationRequest.js';
export { Subscribable } from './subscribable.js';
export { checkJsonSchema, validateJson } from './jsonSchema.js';
export type { JsonSchema, JsonSchemaObject, JsonSchemaType, SchemaProblem, ValueProblem } from './jsonSchema.js';
export { requestedSchema } from './responseFormat.js';
export { InvalidSchemaError, ObjectValidationError, UnsupportedConstraintError } from './schemaErrors.js';
export { ModelInUseError, NotEnoughStorageError, StorageUnavailableError } from './storageErrors.js';
export { defaultStorageManager, requestPersistence, storagePersisted, storageRoom } from './storageRoom.js';
export type { ModelStorage, ModelStorageState, StorageManagerLike, StorageRoom, StoredModel } from './modelStorage.js';
export {
  EngineCrashedError,
  EngineError,
  EngineLoadError,
  InklingError,
  InvalidJobError,
  InvalidOptionError,
  isFatalEngineError,
} from './errors.js';
export type {
  CancelReason,
  ChatCompletionChunk,
  ChatCompletionRequest,
  ChatJobSpec,
  ChatMessage,
  CompletionUsage,
  CreateEmbeddingResponse,
  CreateEngine,
  CreateEngineOptions,
  Embedding,
  EmbeddingCreateParams,
  EmbeddingJobSpec,
  Engine,
  EngineCallOptions,
  EngineInfo,
  EnginePoolOptions,
  FinishReason,
  JobIdentity,
  JobInfo,
  JobKind,
  JobRecord,
  JobResult,
  JobSpec,
  JobStatus,
  LoadProgress,
  Pool,
  PoolLoadProgress,
  PoolPhase,
  PoolStatus,
  PoolTimers,
  Priority,
  ResponseFormat,
  StreamingChatCompletionRequest,
  ToolCall,
  TranslationJobSpec,
  TranslationParams,
} from './types.js';
