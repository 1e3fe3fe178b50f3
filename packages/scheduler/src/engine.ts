// @inkling/scheduler/engine, the door for adapter authors: what every engine sends (chunks,
// results, errors on the wire), how its options are checked, and the job's own helpers. An app
// never needs it; `@inkling/scheduler` holds what apps use.

// Chunks and results: what an engine's stream and a job's result are made of.
export { chunkText, isFinalChunk, streamChunk, usageChunk } from './chunk.js';
export type { ChunkDelta, ChunkMeta } from './chunk.js';
export { jobResult } from './jobResult.js';
export type { JobResultFields } from './jobResult.js';

// Errors across a worker or port boundary, and the shared error vocabulary adapters throw.
export { asError, decodeError, encodeError } from './wireError.js';
export type { ErrorClass, ErrorClasses, WireError } from './wireError.js';
export { guard, reportError } from './reportError.js';
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
export type { FailureDetails } from './failureErrors.js';
export { InvalidSchemaError, ObjectValidationError, UnsupportedConstraintError } from './schemaErrors.js';
// One class per kind of failure, the same for every engine; `device` says which failed.
export {
  FAILURE_ERRORS,
  LoadCancelledError,
  ModelFetchError,
  ModelUnreadableError,
  OutOfMemoryError,
  WorkerCrashedError,
} from './failureErrors.js';

// Calls in flight: one signal per call, every call stopped by interruptGenerate().
export { CallsInFlight } from './callsInFlight.js';
export type { CallHandle } from './callsInFlight.js';

// Streams across a boundary: pushed by the producer, pulled by one reader.
export { ChunkQueue } from './chunkQueue.js';

// Request and answer across a boundary: one pending-call map, one message shape.
export { CallCancelledError, CallChannel, isCallAnswer, isCallCancel, isCallMessage } from './callChannel.js';
export { CallAnswers, answerCall } from './callAnswers.js';
export type { CallAnswer, CallCancel, CallMessage, CallOptions, CallProgress, CallReply, PendingCall } from './callChannel.js';

// Option rules: a table of checks instead of if-chains.
export {
  type Rule,
  firstProblem,
  isBoolean,
  isFunction,
  isObject,
  isString,
  isText,
  isTimers,
  mustBe,
  oneOf,
  optional,
  show,
  wholeNumber,
} from './rules.js';
export { unknownKey } from './unknownKey.js';
export { MAX_TIMER_MS, checkDuration, durationRule } from './duration.js';
export { isAbortSignal } from './isAbortSignal.js';
export { SUPERSEDED, abortReasonOf } from './abortReason.js';

// What a job asks for: translation prompts, structured output, message matching.
export { languageName, translationRequest } from './translationRequest.js';
export { JSON_SCHEMA_KEYWORDS, checkJsonSchema, validateJson } from './jsonSchema.js';
export { MAX_JSON_DEPTH, jsonDepth } from './jsonDepth.js';
export type { JsonSchema, JsonSchemaObject, JsonSchemaType, SchemaProblem, ValueProblem } from './jsonSchema.js';
export { requestedSchema } from './responseFormat.js';
export { messageMatcher } from './messageMatcher.js';

// Ghost text's speculative request shares its editor's cache (slot, prompt_cache_key).
export { cacheSessionOf, speculativeSession } from './speculation.js';

// Timers and batched notifications, injected rather than global.
export { globalTimers } from './globalTimers.js';
export { NotifyScheduler } from './notifyScheduler.js';
export type { ScheduleFlush } from './notifyScheduler.js';

// The engine contract, for convenience beside the helpers.
export type {
  ChatCompletionChunk,
  ChatCompletionRequest,
  ChatMessage,
  CompletionUsage,
  CreateEmbeddingResponse,
  CreateEngine,
  CreateEngineOptions,
  Embedding,
  EmbeddingCreateParams,
  Engine,
  EngineCallOptions,
  EngineInfo,
  FinishReason,
  JobIdentity,
  LoadProgress,
  PoolTimers,
  ResponseFormat,
  StreamingChatCompletionRequest,
  ToolCall,
  TranslationParams,
} from './types.js';
