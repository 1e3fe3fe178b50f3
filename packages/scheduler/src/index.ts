// @inkling/scheduler, the door for apps: the pool, its contract, its errors.
// Adapter authors import `@inkling/scheduler/engine`; model storage, `@inkling/scheduler/storage`;
// tests, `@inkling/scheduler/testing`.

// The pool, and the constants a submit names: priorities (and the order the bands drain, for an
// app's own queue view), job kinds, and the abort reason that marks a request its app replaced.
export { EnginePool } from './enginePool.js';
export type { PoolSchedule } from './fifoPolicy.js';
export { JOB_KIND, PRIORITY, PRIORITY_ORDER } from './constants.js';
export { SUPERSEDED } from './abortReason.js';

// The store primitive the pool and every controller are built on (subscribe + snapshot).
export { Subscribable } from './subscribable.js';

// Errors apps catch: one base class, kinds that say what failed and whether a retry helps.
// (`isFatalEngineError`, whether an engine is beyond use, is the pool's and adapters' concern: /engine.)
export { EngineCrashedError, EngineError, EngineLoadError, InklingError, InvalidJobError, InvalidOptionError } from './errors.js';
export { InvalidSchemaError, ObjectValidationError, UnsupportedConstraintError } from './schemaErrors.js';
// One class per kind of failure, the same for every engine; `device` says which failed.
export { LoadCancelledError, ModelFetchError, ModelUnreadableError, OutOfMemoryError, WorkerCrashedError } from './failureErrors.js';
export { ModelInUseError, NotEnoughStorageError, StorageUnavailableError } from './storageErrors.js';

// The contract: jobs, results, the pool's snapshot, engines as the pool sees them.
export type { ErrorDevice, ErrorKind, ErrorPhase } from './errors.js';
export type { JsonSchema, JsonSchemaObject, JsonSchemaType } from './jsonSchema.js';
export type { ModelStorage, ModelStorageState, StorageRoom, StoredModel } from './modelStorage.js';
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
