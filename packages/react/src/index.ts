// React bindings.
export { PoolProvider } from './base/PoolProvider.js';
export { usePool } from './base/usePool.js';
export { usePoolStatus } from './base/usePoolStatus.js';
export { useModelLoad } from './model/useModelLoad.js';
export { useCompletion } from './completion/useCompletion.js';
export { useChat } from './chat/useChat.js';
export { useGhostText } from './ghost/hooks/useGhostText.js';
export { useGhostFigures } from './ghost/hooks/useGhostFigures.js';
export { GhostFigures } from './ghost/core/ghostFigures.js';
export { ghostEvents } from './ghost/core/ghostTextEvents.js';
export { pauseAfterRejections } from './ghost/core/pauseAfterRejections.js';
export { adaptiveDebounce } from './ghost/core/adaptiveDebounce.js';
export { adaptiveLength } from './ghost/core/adaptiveLength.js';
export { useBatchTranslate } from './translate/useBatchTranslate.js';
export { useEmbeddings } from './embeddings/useEmbeddings.js';
export { useObject } from './object/useObject.js';

// Components, and the behaviour hooks they are shells over.
export { GhostTextarea } from './ghost/components/GhostTextarea.js';
export { useGhostTextarea } from './ghost/hooks/useGhostTextarea.js';
export { TranslateList } from './translate/TranslateList.js';
export { useTranslateList } from './translate/useTranslateList.js';
export { ModelLoadProgress } from './model/ModelLoadProgress.js';
export { useModelLoadProgress } from './model/useModelLoadProgress.js';
export { PoolInspector } from './inspector/PoolInspector.js';
export { usePoolInspector } from './inspector/usePoolInspector.js';
export { ModelManager } from './model/ModelManager.js';
export { useModelManager } from './model/useModelManager.js';
export { useModelStorage } from './model/useModelStorage.js';

// Building blocks the hooks' options take.
export { inklingKeys } from './base/core/cacheKeys.js';
export { defaultGhostParams } from './ghost/core/ghostPrompt.js';
export { promptWindow } from './ghost/core/promptWindow.js';
export type { PromptWindow, PromptWindowSizes } from './ghost/core/promptWindow.js';
export { defaultTranslateParams } from './translate/core/translatePrompt.js';

export type { PoolProviderProps } from './base/PoolProvider.js';
export type { UseModelLoadOptions, UseModelLoadResult } from './model/useModelLoad.js';
export type { UseCompletionOptions, UseCompletionResult } from './completion/useCompletion.js';
export type { UseChatOptions, UseChatResult } from './chat/useChat.js';
export type { UseGhostTextOptions, UseGhostTextResult } from './ghost/hooks/useGhostText.js';
export type { UseBatchTranslateOptions, UseBatchTranslateResult } from './translate/useBatchTranslate.js';
export type { EmbeddingsStatus, UseEmbeddingsOptions, UseEmbeddingsResult } from './embeddings/useEmbeddings.js';
export type { UseObjectOptions, UseObjectResult } from './object/useObject.js';
export type { DeepPartial, ObjectOptions, ObjectState } from './object/core/objectController.js';
export type { InferObject, ObjectSchema } from './object/core/objectSchema.js';
export type { GhostTextareaAria, GhostTextareaMessages, GhostTextareaProps } from './ghost/hooks/useGhostTextarea.js';
export type { TranslateListAria, TranslateListLabels, TranslateListProps, TranslateListRow } from './translate/useTranslateList.js';
export type { ModelLoadProgressAria, ModelLoadProgressLabels, ModelLoadProgressProps } from './model/useModelLoadProgress.js';
export type { PoolInspectorProps } from './inspector/PoolInspector.js';
export type { ModelManagerLabels, ModelManagerProps, ModelManagerRow } from './model/useModelManager.js';
export type { UseModelStorageResult } from './model/useModelStorage.js';
export type { ModelStorageSnapshot } from './model/core/modelStorageController.js';
export type { UsePoolInspectorOptions, UsePoolInspectorResult } from './inspector/usePoolInspector.js';
export type { InspectedEngine, InspectedJob, JobOutcome, PoolInspection } from './inspector/core/inspectPool.js';
export type { DataAttributes } from './base/dataAttributes.js';
export type { FrameScheduler } from './base/core/frameScheduler.js';
export type { ModelLoadState } from './model/core/modelLoadState.js';
export type { CompletionState, StreamStatus } from './base/core/streamState.js';
export type { ChatRequestParams } from './chat/core/chatController.js';
export type { ChatState, ChatStatus } from './chat/core/chatState.js';
export type { ChatTool, ToolCallState, ToolCallStatus } from './chat/core/chatTools.js';
export type { GhostAcceptance, GhostTextState, GhostTextStatus } from './ghost/core/projectGhostText.js';
export type { GhostEventBase, GhostRejection, GhostSuggestionSource, GhostTextEvent } from './ghost/core/ghostTextEvent.js';
export type { GhostFigureSet } from './ghost/core/ghostFigures.js';
export type { GhostDebounceBounds } from './ghost/core/debounceTuner.js';
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
export type { GhostRefusalRules } from './ghost/core/ghostRefusal.js';
export type { GhostContext, GhostParamsInput } from './ghost/core/ghostPrompt.js';
export type { BatchStatus, BatchTranslateState, TranslationResult, TranslationStatus } from './translate/core/batchTranslateController.js';
export type { TranslateParamsInput } from './translate/core/translatePrompt.js';

// The scheduler's door for apps (the pool, its contract and errors), so an app imports from one
// place. Adapter and storage helpers stay behind @inkling/scheduler/engine and /storage.
export * from '@inkling/scheduler';
