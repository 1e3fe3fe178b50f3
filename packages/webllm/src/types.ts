// The part of WebLLM this package touches, declared structurally so that any
// version in the peer range (0.2.79 .. 0.2.x) fits, whichever one the app has.

/** WebLLM's `ModelRecord`: where a model's weights and library are. */
export interface WebLLMModelRecord {
  /** URL of the weights folder (`/resolve/main/` is appended unless present). */
  model: string;
  model_id: string;
  /** URL of the compiled model library (`.wasm`). */
  model_lib: string;
  overrides?: Record<string, unknown>;
  vram_required_MB?: number;
  low_resource_required?: boolean;
  required_features?: string[];
  /** `0` LLM (default), `1` embedding, `2` vision-language. */
  model_type?: number;
  [extra: string]: unknown;
}

/** Where WebLLM keeps downloaded models. `'cache'` is the Cache API. */
export type CacheBackend = 'cache' | 'indexeddb' | 'opfs' | 'cross-origin';

/**
 * WebLLM's `AppConfig`. The cache is named by `cacheBackend` from 0.2.83 on and
 * by `useIndexedDBCache` before; Inkling sets both, so either version reads it.
 */
export interface WebLLMAppConfig {
  model_list: WebLLMModelRecord[];
  cacheBackend?: CacheBackend;
  useIndexedDBCache?: boolean;
  [extra: string]: unknown;
}

/** WebLLM's `InitProgressReport`. */
export interface WebLLMProgressReport {
  progress: number;
  timeElapsed: number;
  text: string;
}

/** The part of WebLLM's `MLCEngine` the engine worker drives. */
export interface WebLLMEngineLike {
  chat: { completions: { create(request: object): Promise<unknown> } };
  embeddings: { create(request: object): Promise<unknown> };
  interruptGenerate(): void;
  unload(): Promise<void>;
  reload(modelId: string, chatOpts?: never): Promise<void>;
}

/**
 * The exports of `@mlc-ai/web-llm` Inkling uses: `MLCEngine` and
 * `prebuiltAppConfig` in the engine worker (`hostWebLLM`), the cache
 * functions on the page (`isModelCached`, `deleteModel`). Loose on purpose
 * (`object` where WebLLM has its own config types) so every version's module
 * fits.
 */
export interface WebLLMModule {
  MLCEngine: new (engineConfig?: never) => WebLLMEngineLike;
  prebuiltAppConfig: { model_list: object[] };
  hasModelInCache(modelId: string, appConfig?: object): Promise<boolean>;
  deleteModelAllInfoInCache(modelId: string, appConfig?: object): Promise<void>;
}

/** Where the WebLLM module comes from: the module itself, or a function that imports it. */
export type WebLLMSource = WebLLMModule | (() => Promise<WebLLMModule>);

/**
 * What an engine's worker must offer: a browser `Worker` fits, and so does a
 * small adapter over Node's `worker_threads`. Inkling sets `onmessage`.
 */
export interface WorkerLike {
  postMessage(message: unknown): void;
  onmessage: ((event: MessageEvent) => unknown) | null;
  terminate(): unknown;
  /** `'error'` is taken as the worker's death. */
  addEventListener?(type: 'error' | 'messageerror', listener: (event: Event) => void): void;
}

/** Builds the worker for engine number `index`. */
export type WorkerFactory = (index: number) => WorkerLike;
