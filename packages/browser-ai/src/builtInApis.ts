/**
 * The parts of Chrome's built-in AI APIs this package uses, declared
 * structurally (TypeScript's DOM library has none of them yet). Every member
 * named here is checked against Chromium's own prototypes in the browser
 * suite (`BUILT_IN_SURFACE` of `@inkling/browser-ai/testing`).
 */

/** What `availability()` answers: the model can run now, after a download, is downloading, or never here. */
export type Availability = 'unavailable' | 'downloadable' | 'downloading' | 'available';

/** Options every `create()` takes: progress of the model's download, and a signal to give up. */
export interface CreateMonitorOptions {
  /** Called once with a target that fires `downloadprogress` events (`loaded`: 0..1). */
  monitor?: (monitor: EventTarget) => void;
  signal?: AbortSignal;
}

/** A message of the Prompt API. */
export interface LanguageModelMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/**
 * A Prompt API session (`LanguageModel` instance). Its limits go by the names
 * of the Chrome it runs in (148 and later: `contextWindow`, `contextUsage`,
 * `measureContextUsage`; older ones below); the engines read the newest
 * present and skip their own check where none is.
 */
export interface LanguageModelSession {
  promptStreaming(
    input: string | LanguageModelMessage[],
    options?: { signal?: AbortSignal; responseConstraint?: unknown },
  ): ReadableStream<string>;
  append(input: LanguageModelMessage[], options?: { signal?: AbortSignal }): Promise<void>;
  clone(options?: { signal?: AbortSignal }): Promise<LanguageModelSession>;
  /** What an input would take of the context, in tokens (Chrome 148 and later). */
  measureContextUsage?(input: string | LanguageModelMessage[], options?: { signal?: AbortSignal }): Promise<number>;
  /** Tokens the session's context holds now (Chrome 148 and later). */
  readonly contextUsage?: number;
  /** The most tokens its context can hold (Chrome 148 and later). */
  readonly contextWindow?: number;
  /** `measureContextUsage` as Chrome 138 to 147 named it. */
  measureInputUsage?(input: string | LanguageModelMessage[], options?: { signal?: AbortSignal }): Promise<number>;
  /** `contextUsage` as Chrome 138 to 147 named it. */
  readonly inputUsage?: number;
  /** `contextWindow` as Chrome 138 to 147 named it. */
  readonly inputQuota?: number;
  /** `contextUsage` as the origin trial before Chrome 138 named it. */
  readonly tokensSoFar?: number;
  /** `contextWindow` as the origin trial before Chrome 138 named it. */
  readonly maxTokens?: number;
  /** What is left of the context, in the origin trial before Chrome 138. */
  readonly tokensLeft?: number;
  destroy(): void;
}

/** The `LanguageModel` interface object (the Prompt API). */
export interface LanguageModelApi {
  availability(options?: Record<string, unknown>): Promise<Availability>;
  create(options?: CreateMonitorOptions & { initialPrompts?: LanguageModelMessage[] }): Promise<LanguageModelSession>;
}

/** A Translator API translator, for one language pair. */
export interface TranslatorInstance {
  translateStreaming(text: string, options?: { signal?: AbortSignal }): ReadableStream<string>;
  measureInputUsage(text: string, options?: { signal?: AbortSignal }): Promise<number>;
  readonly inputQuota: number;
  destroy(): void;
}

/** A language pair, as the Translator API names it. */
export interface LanguagePairOptions {
  sourceLanguage: string;
  targetLanguage: string;
}

/** The `Translator` interface object. */
export interface TranslatorApi {
  availability(options: LanguagePairOptions): Promise<Availability>;
  create(options: LanguagePairOptions & CreateMonitorOptions): Promise<TranslatorInstance>;
}

/** A Language Detector API detector. */
export interface LanguageDetectorInstance {
  detect(text: string, options?: { signal?: AbortSignal }): Promise<Array<{ detectedLanguage: string; confidence: number }>>;
  destroy(): void;
}

/** The `LanguageDetector` interface object. */
export interface LanguageDetectorApi {
  availability(options?: Record<string, unknown>): Promise<Availability>;
  create(options?: CreateMonitorOptions): Promise<LanguageDetectorInstance>;
}

/**
 * Where the APIs are looked up: `globalThis` by default, a window of an
 * iframe, or a fake (`createFakeBuiltInAI` of `@inkling/browser-ai/testing`).
 * `document.featurePolicy` is read, where the browser has it, to tell a
 * permissions policy that blocks an API from a device that cannot run it.
 *
 * @example
 * detectBuiltInAI({ globals: iframe.contentWindow as unknown as BuiltInAIGlobals });
 */
export interface BuiltInAIGlobals {
  LanguageModel?: LanguageModelApi;
  Translator?: TranslatorApi;
  LanguageDetector?: LanguageDetectorApi;
  document?: { featurePolicy?: { allowsFeature(feature: string): boolean } };
}

/** The three APIs by name. */
export type BuiltInApiName = 'LanguageModel' | 'Translator' | 'LanguageDetector';

/** The permissions-policy feature of each API. */
export const POLICY_FEATURE: Readonly<Record<BuiltInApiName, string>> = {
  LanguageModel: 'language-model',
  Translator: 'translator',
  LanguageDetector: 'language-detector',
};

/** The globals to use: the ones given, else `globalThis`, read when called (never at import). */
export function builtInGlobals(globals: BuiltInAIGlobals | undefined): BuiltInAIGlobals {
  return globals ?? (globalThis as unknown as BuiltInAIGlobals);
}
