// The framework-free layer under the hooks: controllers (external stores with
// subscribe/getSnapshot/setOptions) another adapter (Vue, Svelte, plain DOM)
// can bind. No React here: a lint rule keeps it so.

// Controllers and the primitives they are built of.
export { CompletionController } from './completionController.js';
export { ChatController } from './chatController.js';
export { GhostTextController } from '../ghost/core/ghostTextController.js';
export { GhostFigures } from '../ghost/core/ghostFigures.js';
export { ghostEvents } from '../ghost/core/ghostTextEvents.js';
export { pauseAfterRejections } from '../ghost/core/pauseAfterRejections.js';
export { adaptiveDebounce } from '../ghost/core/adaptiveDebounce.js';
export { BatchTranslateController } from './batchTranslateController.js';
export { ObjectController } from './object/objectController.js';
export { parsePartialJson } from './object/partialJson.js';
export { resolveObjectSchema } from './object/objectSchema.js';
export { Store } from './store.js';
export { ModelStorageController } from './modelStorageController.js';
export { StreamedJob } from './streamedJob.js';
export { retainPool } from './poolLease.js';
export { fetchEmbeddings } from './fetchEmbeddings.js';
export { createModelLoadSelector } from './modelLoadState.js';

// Helpers the hooks and components use, for adapters that draw the same things.
export { animationFrame } from './frameScheduler.js';
export { inklingKeys, mapCache, queryClientCache } from './cacheKeys.js';
export { inspectPool } from './inspectPool.js';
export { loadErrorAdvice } from './loadErrorAdvice.js';
export { insertText } from '../ghost/core/insertText.js';
export { attachGhostOverlay } from '../ghost/core/attachGhostOverlay.js';
export { contextOf, insertAtCaret, projectGhostText } from '../ghost/core/projectGhostText.js';
export { nextWord } from '../ghost/core/nextWord.js';

export type { CompletionOptions, CompletionState, StreamStatus } from './completionController.js';
export type { DeepPartial, ObjectOptions, ObjectState } from './object/objectController.js';
export type { InferObject, ObjectSchema, ResolvedSchema } from './object/objectSchema.js';
export type { PartialJson } from './object/partialJson.js';
export type { ChatOptions, ChatRequestParams, ChatState, ChatStatus } from './chatController.js';
export type { ChatTool, ToolCallState, ToolCallStatus } from './chatTools.js';
export type { GhostTextEnvironment, GhostTextOptions, GhostTextStats } from '../ghost/core/ghostTextOptions.js';
export type { GhostEventBase, GhostEvents, GhostRejection, GhostSuggestionSource, GhostTextEvent } from '../ghost/core/ghostTextEvents.js';
export type { GhostPause } from '../ghost/core/pauseAfterRejections.js';
export type { GhostAdaptiveDebounce } from '../ghost/core/adaptiveDebounce.js';
export type { GhostAddOn, GhostWatcher } from '../ghost/core/ghostAddOn.js';
export type { GhostFigureSet } from '../ghost/core/ghostFigures.js';
export type { GhostDebounceBounds } from '../ghost/core/debounceTuner.js';
export type {
  BatchStatus,
  BatchTranslateEnvironment,
  BatchTranslateOptions,
  BatchTranslateState,
  TranslationResult,
  TranslationStatus,
} from './batchTranslateController.js';
export type { Urgency } from './store.js';
export type { StreamedJobHandlers } from './streamedJob.js';
export type { RetainPoolOptions } from './poolLease.js';
export type { FetchEmbeddingsOptions } from './fetchEmbeddings.js';
export type { ModelLoadState } from './modelLoadState.js';
export type { FrameScheduler } from './frameScheduler.js';
export type { QueryDataClient, ResultCache } from './cacheKeys.js';
export type { InspectedEngine, InspectedJob, JobOutcome, PoolInspection } from './inspectPool.js';
export type { GhostOverlayHandle } from '../ghost/core/attachGhostOverlay.js';
export type { GhostAcceptance, GhostTextState, GhostTextStatus } from '../ghost/core/projectGhostText.js';
export type { GhostRefusalRules } from '../ghost/core/ghostRefusal.js';
export type { SuggestionCacheLimits } from '../ghost/core/suggestionCache.js';
