export { promptEngines } from './promptEngines.js';
export { translatorEngines } from './translatorEngines.js';
export { builtInEngines } from './builtInEngines.js';
export type { BuiltInEnginesOptions } from './builtInEngines.js';
export { detectBuiltInAI } from './detectBuiltInAI.js';
export { preferBuiltIn } from './preferBuiltIn.js';
export {
  BuiltInAIUnavailableError,
  BuiltInDownloadStalledError,
  BuiltInGestureRequiredError,
  BuiltInLoadCancelledError,
  InputTooLongError,
  UnsupportedLanguageError,
} from './errors.js';
export type { BuiltInAbsence } from './errors.js';
export type { BuiltInState, FeatureProbe } from './apiAvailability.js';
export type { BuiltInAIProbe, DetectBuiltInAIOptions } from './detectBuiltInAI.js';
export type { BuiltInFeature, OtherEngineChoice, PreferBuiltInOptions } from './preferBuiltIn.js';
export type { PromptEngine, PromptEnginesOptions } from './promptEngines.js';
export type { TranslatorEngine, TranslatorEnginesOptions } from './translatorEngines.js';
export type { LanguagePair } from './translators.js';
export type {
  Availability,
  BuiltInAIGlobals,
  BuiltInApiName,
  CreateMonitorOptions,
  LanguageDetectorApi,
  LanguageDetectorInstance,
  LanguageModelApi,
  LanguageModelMessage,
  LanguageModelSession,
  LanguagePairOptions,
  TranslatorApi,
  TranslatorInstance,
} from './builtInApis.js';
export { BrowserManagedModelError, browserAIModelStorage, type BrowserAIModelStorageOptions } from './browserAIModelStorage.js';
