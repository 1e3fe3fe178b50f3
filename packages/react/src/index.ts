// React bindings.
export { PoolProvider } from './PoolProvider.js';
export { usePool } from './usePool.js';
export { usePoolStatus } from './usePoolStatus.js';
export { useModelLoad } from './useModelLoad.js';
export { useCompletion } from './useCompletion.js';
export { useChat } from './useChat.js';
export { useGhostText } from './ghost/hooks/useGhostText.js';
export { useGhostFigures } from './ghost/hooks/useGhostFigures.js';
export { GhostFigures } from './ghost/core/ghostFigures.js';
export { ghostEvents } from './ghost/core/ghostTextEvents.js';
export { pauseAfterRejections } from './ghost/core/pauseAfterRejections.js';
export { adaptiveDebounce } from './ghost/core/adaptiveDebounce.js';
export { useBatchTranslate } from './useBatchTranslate.js';
export { useEmbeddings } from './useEmbeddings.js';
export { useObject } from './useObject.js';

// Components, and the behaviour hooks they are shells over.
export { GhostTextarea } from './ghost/components/GhostTextarea.js';
export { useGhostTextarea } from './ghost/hooks/useGhostTextarea.js';
export { TranslateList } from './TranslateList.js';
export { useTranslateList } from './useTranslateList.js';
export { ModelLoadProgress } from './ModelLoadProgress.js';
export { useModelLoadProgress } from './useModelLoadProgress.js';
export { PoolInspector } from './PoolInspector.js';
export { usePoolInspector } from './usePoolInspector.js';
export { ModelManager } from './ModelManager.js';
export { useModelManager } from './useModelManager.js';
export { useModelStorage } from './useModelStorage.js';

// Building blocks the hooks' options take.
export { inklingKeys } from './core/cacheKeys.js';
export { defaultGhostParams } from './ghost/core/ghostPrompt.js';
export { promptWindow } from './ghost/core/promptWindow.js';
export type { PromptWindow, PromptWindowSizes } from './ghost/core/promptWindow.js';
export { defaultTranslateParams } from './core/translatePrompt.js';

export type { PoolProviderProps } from './PoolProvider.js';
export type { UseModelLoadOptions, UseModelLoadResult } from './useModelLoad.js';
export type { UseCompletionOptions, UseCompletionResult } from './useCompletion.js';
export type { UseChatOptions, UseChatResult } from './useChat.js';
export type { UseGhostTextOptions, UseGhostTextResult } from './ghost/hooks/useGhostText.js';
export type { UseBatchTranslateOptions, UseBatchTranslateResult } from './useBatchTranslate.js';
export type { EmbeddingsStatus, UseEmbeddingsOptions, UseEmbeddingsResult } from './useEmbeddings.js';
export type { UseObjectOptions, UseObjectResult } from './useObject.js';
export type { DeepPartial, ObjectOptions, ObjectState } from './core/object/objectController.js';
export type { InferObject, ObjectSchema } from './core/object/objectSchema.js';
export type { GhostTextareaAria, GhostTextareaMessages, GhostTextareaProps } from './ghost/hooks/useGhostTextarea.js';
export type { TranslateListAria, TranslateListLabels, TranslateListProps, TranslateListRow } from './useTranslateList.js';
export type { ModelLoadProgressAria, ModelLoadProgressLabels, ModelLoadProgressProps } from './useModelLoadProgress.js';
export type { PoolInspectorProps } from './PoolInspector.js';
export type { ModelManagerLabels, ModelManagerProps, ModelManagerRow } from './useModelManager.js';
export type { UseModelStorageResult } from './useModelStorage.js';
export type { ModelStorageSnapshot } from './core/modelStorageController.js';
export type { UsePoolInspectorOptions, UsePoolInspectorResult } from './usePoolInspector.js';
export type { InspectedEngine, InspectedJob, JobOutcome, PoolInspection } from './core/inspectPool.js';
export type { DataAttributes } from './dataAttributes.js';
export type { FrameScheduler } from './core/frameScheduler.js';
export type { ModelLoadState } from './core/modelLoadState.js';
export type { CompletionState, StreamStatus } from './core/completionController.js';
export type { ChatRequestParams, ChatState, ChatStatus } from './core/chatController.js';
export type { ChatTool, ToolCallState, ToolCallStatus } from './core/chatTools.js';
export type { GhostAcceptance, GhostTextState, GhostTextStatus } from './ghost/core/projectGhostText.js';
export type { GhostEventBase, GhostEvents, GhostRejection, GhostSuggestionSource, GhostTextEvent } from './ghost/core/ghostTextEvents.js';
export type { GhostFigureSet } from './ghost/core/ghostFigures.js';
export type { GhostPause } from './ghost/core/pauseAfterRejections.js';
export type { GhostAdaptiveDebounce } from './ghost/core/adaptiveDebounce.js';
export type { GhostDebounceBounds } from './ghost/core/debounceTuner.js';
export type { GhostAddOn, GhostWatcher } from './ghost/core/ghostAddOn.js';
export type { GhostRefusalRules } from './ghost/core/ghostRefusal.js';
export type { GhostContext, GhostParamsInput } from './ghost/core/ghostPrompt.js';
export type { BatchStatus, BatchTranslateState, TranslationResult, TranslationStatus } from './core/batchTranslateController.js';
export type { TranslateParamsInput } from './core/translatePrompt.js';

// The scheduler, so an app imports from one place (never its /testing entry).
export * from '@inkling/scheduler';
