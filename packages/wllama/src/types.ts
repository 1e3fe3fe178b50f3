import type { Engine, LoadProgress, PoolTimers } from '@inkling/scheduler';
import type { StorageManagerLike } from '@inkling/scheduler/storage';

/** Options of `wllamaEngines(...)`. */
export interface WllamaEnginesOptions {
  /**
   * URL of the model's `.gguf` file (absolute, or relative to the page); for a
   * model split with `llama-gguf-split`, the first part. `cpuModelCatalogue`
   * lists small instruct models. Required.
   */
  model: string;
  /**
   * URL of `@wllama/wllama/esm/wasm/wllama.wasm`, served with your app (with
   * Vite: `import wasmUrl from '@wllama/wllama/esm/wasm/wllama.wasm?url'`).
   * Nothing is fetched from a CDN. Required.
   */
  wasmUrl: string;
  /**
   * Load the model to make embeddings (`embeddings.create`) instead of chat.
   * The model's own pooling is used unless `pooling` says otherwise. Default `false`.
   */
  embeddings?: boolean;
  /** Pooling for an embedding engine. Default: what the model's file says. */
  pooling?: 'mean' | 'cls' | 'last';
  /** Tokens of context (prompt and answer together). Default `2048`. */
  contextSize?: number;
  /**
   * CPU threads per engine. More than one needs a cross-origin isolated page
   * (`crossOriginIsolated`, see the README's COOP/COEP headers); elsewhere the
   * engine quietly uses one. On small machines one is often fastest. Default `1`.
   */
  threads?: number;
  /** Sampling seed for every request (requests may still pass their own). Default: none (llama.cpp's). */
  seed?: number;
  /**
   * How long a load may wait for the model file's first bytes before failing
   * with `ModelFetchError` (`checkDuration`; `Infinity` waits for ever). Default `Infinity`.
   */
  fetchTimeoutMs?: number;
  /** More of wllama's `LoadModelParams` (e.g. `{ n_batch: 512 }`), applied last. Default: none. */
  loadParams?: Record<string, unknown>;
  /** The `fetch` used for the model file. Default: the global `fetch`, looked up when used. */
  fetch?: (input: string, init: RequestInit) => Promise<Response>;
  /** Show llama.cpp's own log in the console. Default `false`. */
  verbose?: boolean;
  /**
   * Where the model file is kept between visits: the origin private file
   * system of this `navigator.storage`. A cut download resumes from what is
   * stored (HTTP ranges where the server allows them), a partial or corrupt
   * copy is found and downloaded again, and one tab downloads while others
   * wait (Web Locks). `false` downloads into memory on every load; where the
   * browser has no storage (a private window), loads do that by themselves.
   * `wllamaModelStorage()` lists and deletes what is stored.
   * Default: `navigator.storage`, looked up when loading.
   */
  storage?: StorageManagerLike | false;
  /**
   * The model file's size in bytes, from your catalogue: the free-space check
   * before the download then needs no `HEAD` request. Default: from the
   * stored copy or a `HEAD` request.
   */
  sizeBytes?: number;
  /**
   * The file's SHA-256 (64 hex digits): a stored copy is checked against it
   * before each load and downloaded again when it differs (the file is read
   * whole for this). Default: none (size and GGUF header are checked, so
   * bytes damaged on disk past the header go unnoticed: pass it where your
   * catalogue lists one).
   */
  sha256?: string;
  /** Timers for `fetchTimeoutMs`. Default: `globalTimers` from `@inkling/scheduler`. */
  timers?: PoolTimers;
  /**
   * Bound on llama.cpp's host-memory prompt cache, in MiB. llama.cpp keeps
   * each prompt that a new one mostly replaced (an edit in the middle of a
   * note, with ghost text) and wllama 3.13 cannot cap it, so the engine
   * estimates it (`engine.promptCache`) and, past this, loads the model into a
   * fresh worker between jobs, which returns the memory; the next job waits
   * for that reload. Typing at the end of a note caches nothing. `Infinity`:
   * never (then a downloaded file is not kept for reloading). Default `256`.
   */
  promptCacheLimitMiB?: number;
}

/** A load progress report of a wllama engine: bytes of the model file, then loading it. */
export interface WllamaLoadProgress extends LoadProgress {
  /** 0..1 over the whole load; never goes back. */
  progress: number;
  /** `'fetch'` while the file downloads, `'load'` while llama.cpp reads it, `'ready'` at the end. */
  phase: 'fetch' | 'load' | 'ready';
  /** Bytes of the model file received so far. */
  loadedBytes: number;
  /** The file's size, when the server says (`Content-Length`); else `0`. */
  totalBytes: number;
}

/** An `Engine` running llama.cpp in a wllama worker. */
export interface WllamaEngine extends Engine {
  readonly concurrency: 1;
  /** The model URL. */
  readonly model: string;
  /** Threads the engine really uses (1 unless the page is cross-origin isolated). */
  readonly threads: number;
  /** The model's hidden width, the length of its embeddings. */
  readonly embeddingWidth: number;
  /** The context size in tokens. */
  readonly contextSize: number;
  /** What bounding llama.cpp's host prompt cache has done (see `promptCacheLimitMiB`). */
  readonly promptCache: PromptCacheStats;
  unload(): Promise<void>;
}

/** What the engine's prompt-cache bound has done so far (`WllamaEngine.promptCache`). */
export interface PromptCacheStats {
  /** Estimated bytes llama.cpp's host prompt cache holds in the current worker. */
  estimatedBytes: number;
  /** Prompts it holds. */
  prompts: number;
  /** Workers replaced to return that memory. */
  restarts: number;
  /** Milliseconds those restarts took in all (a job waiting for one waits at most one of them). */
  restartMs: number;
}
