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
export { defaultLocks, deleteEach, deleteUnlessInUse, modelLockHeld, withModelLock } from './modelLock.js';
export type { LockManagerLike, ModelLockOptions } from './modelLock.js';
export { NotifyScheduler } from './notifyScheduler.js';
export { reportError } from './reportError.js';
export { asError, decodeError, encodeError } from './wireError.js';
export { chunkText, isFinalChunk, streamChunk, usageChunk } from './chunk.js';
export { jobResult } from './jobResult.js';
export { isAbortSignal } from './isAbortSignal.js';
export { messageMatcher } from './messageMatcher.js';
export { type Rule, firstProblem, mustBe, optional, show, wholeNumber } from './rules.js';
export {
  EngineCrashedError,
  EngineError,
  EngineLoadError,
  InklingError,
  InvalidJobError,
  InvalidOptionError,
  isFatalEngineError,
} from './errors.js';
export type { ErrorDevice, ErrorKind, ErrorPhase } from './errors.js';
export type { ChunkDelta, ChunkMeta } from './chunk.js';
export type { JobResultFields } from './jobResult.js';
export type { ScheduleFlush } from './notifyScheduler.js';
export type { ErrorClass, ErrorClasses, WireError } from './wireError.js';
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
