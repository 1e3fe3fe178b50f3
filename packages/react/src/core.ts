// The framework-free layer under the hooks: controllers (external stores with
// subscribe/getSnapshot/setOptions) another adapter (Vue, Svelte, plain DOM)
// can bind. No React here: a lint rule keeps it so.

// Controllers and the primitives they are built of.
export { CompletionController } from './completion/core/completionController.js';
export { ChatController } from './chat/core/chatController.js';
export { GhostTextController } from './ghost/core/ghostTextController.js';
export { BatchTranslateController } from './translate/core/batchTranslateController.js';
export { ObjectController } from './object/core/objectController.js';
export { parsePartialJson } from './object/core/partialJson.js';
export { resolveObjectSchema } from './object/core/objectSchema.js';
export { Store } from './base/core/store.js';
export { ModelStorageController } from './model/core/modelStorageController.js';
export { StreamedJob } from './base/core/streamedJob.js';
export { retainPool } from './base/core/poolLease.js';
export { fetchEmbeddings } from './embeddings/core/fetchEmbeddings.js';
export { createModelLoadSelector } from './model/core/modelLoadState.js';

// Ghost text's flow as a pure machine: `stepGhost(state, event)` gives `{ state, effects }`,
// `ghostStateOf(state)` the one public state. `GhostTextController` is its shell; another
// binding (or a test) can drive the machine itself.
export { GHOST_START, ghostStateOf, stepGhost } from './ghost/core/ghostMachine.js';
export { GhostFigures } from './ghost/core/ghostFigures.js';
export { ghostEvents } from './ghost/core/ghostTextEvents.js';
export { pauseAfterRejections } from './ghost/core/pauseAfterRejections.js';
export { adaptiveDebounce } from './ghost/core/adaptiveDebounce.js';
export { adaptiveLength } from './ghost/core/adaptiveLength.js';

// Helpers the hooks and components use, for adapters that draw the same things.
export { animationFrame } from './base/core/frameScheduler.js';
export { inklingKeys, mapCache, queryClientCache } from './base/core/cacheKeys.js';
export { inspectPool } from './inspector/core/inspectPool.js';
export { loadErrorAdvice } from './model/core/loadErrorAdvice.js';
export { insertText } from './ghost/core/insertText.js';
export { attachGhostOverlay } from './ghost/core/attachGhostOverlay.js';
export { contextOf, insertAtCaret, projectGhostText } from './ghost/core/projectGhostText.js';
export { nextWord } from './ghost/core/nextWord.js';

export type { CompletionOptions } from './completion/core/completionController.js';
export type { CompletionState, StreamStatus } from './base/core/streamState.js';
export type { DeepPartial, ObjectOptions, ObjectState } from './object/core/objectController.js';
export type { InferObject, ObjectSchema, ResolvedSchema } from './object/core/objectSchema.js';
export type { PartialJson } from './object/core/partialJson.js';
export type { ChatOptions, ChatRequestParams } from './chat/core/chatController.js';
export type { ChatState, ChatStatus } from './chat/core/chatState.js';
export type { ModelStorageControllerOptions } from './model/core/modelStorageController.js';
export type { ChatTool, ToolCallState, ToolCallStatus } from './chat/core/chatTools.js';
export type { GhostTextEnvironment, GhostTextOptions, GhostTextStats } from './ghost/core/ghostTextOptions.js';
export type {
  BatchStatus,
  BatchTranslateEnvironment,
  BatchTranslateOptions,
  BatchTranslateState,
  TranslationResult,
  TranslationStatus,
} from './translate/core/batchTranslateController.js';
export type { Urgency } from './base/core/store.js';
export type { StreamedJobHandlers } from './base/core/streamedJob.js';
export type { RetainPoolOptions } from './base/core/poolLease.js';
export type { FetchEmbeddingsOptions } from './embeddings/core/fetchEmbeddings.js';
export type { ModelLoadState } from './model/core/modelLoadState.js';
export type { FrameScheduler } from './base/core/frameScheduler.js';
export type { QueryDataClient, ResultCache } from './base/core/cacheKeys.js';
export type { InspectedEngine, InspectedJob, JobOutcome, PoolInspection } from './inspector/core/inspectPool.js';
export type { GhostOverlayHandle } from './ghost/core/attachGhostOverlay.js';
export type { GhostAcceptance, GhostTextState, GhostTextStatus } from './ghost/core/projectGhostText.js';
export type { GhostRefusalRules } from './ghost/core/ghostRefusal.js';
export type { GhostEffect, GhostMachine, GhostMachineEvent, GhostPhase, GhostSpeculation, GhostStep } from './ghost/core/ghostMachine.js';
export type { GhostRequest } from './ghost/core/ghostRequest.js';
export type { GhostContext } from './ghost/core/ghostContext.js';
export type { SuggestionCacheLimits } from './ghost/core/suggestionCache.js';
export type { GhostEventBase, GhostRejection, GhostSuggestionSource, GhostTextEvent } from './ghost/core/ghostTextEvent.js';
export type {
  GhostAdaptiveDebounce,
  GhostAdaptiveLength,
  GhostAddOn,
  GhostAddOnOptions,
  GhostEvents,
  GhostLengthBounds,
  GhostPause,
  GhostWatcher,
} from './ghost/core/ghostAddOn.js';
export type { GhostFigureSet } from './ghost/core/ghostFigures.js';
export type { GhostDebounceBounds } from './ghost/core/debounceTuner.js';
