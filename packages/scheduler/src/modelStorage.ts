// The shape every engine package's model storage has (wllama's OPFS store,
// WebLLM's Cache API / IndexedDB cache): types only, so engine packages share
// it without depending on each other, and React reads it without knowing an engine.

/** One model (or what has arrived of it) on the person's disk. */
export interface StoredModel {
  /** The model as the engines are given it: a wllama URL, a WebLLM model id. */
  readonly model: string;
  /** Bytes it takes on disk now; `undefined` where the browser keeps the model and does not say (its built-in AI models). */
  readonly bytes: number | undefined;
  /** Its whole size, when known (a partial download knows it from the server); else `undefined`. */
  readonly totalBytes: number | undefined;
  /** `true` when every byte is there and checked; `false` for a cut or unchecked download. */
  readonly complete: boolean;
  /** When an engine last loaded it (ms since the epoch); `undefined` when never recorded. */
  readonly lastUsed: number | undefined;
  /** How to name it to a person (e.g. "Chrome's built-in model"); absent: the UI derives a name from `model`. */
  readonly label?: string;
  /**
   * Why `delete` cannot remove it, and where the person can (a model the
   * browser keeps for every site, managed in its settings); absent when `delete` can.
   */
  readonly cannotDelete?: string;
  /**
   * What a tab (this one or another) is doing with it now: `'downloading'`
   * (its bytes grow: read again for progress) or `'loading'` (from disk).
   * `delete` refuses it meanwhile (`ModelInUseError`). Absent when nothing
   * holds it, or where the storage cannot tell.
   */
  readonly busy?: 'downloading' | 'loading';
}

/** The browser's storage figures for this origin (`navigator.storage.estimate()`). */
export interface StorageRoom {
  /** Bytes this origin uses (all storage, not only models). */
  readonly usage: number;
  /** Bytes this origin may use in all. */
  readonly quota: number;
  /** `quota - usage`, never below 0. */
  readonly free: number;
}

/** What a storage reports about itself in one read. */
export interface ModelStorageState {
  /** The stored models, complete and partial, most recently used first. */
  readonly models: readonly StoredModel[];
  /** The origin's figures; `undefined` where the browser has no `navigator.storage.estimate` (some private windows). */
  readonly room: StorageRoom | undefined;
  /**
   * Whether the browser keeps this origin's data under pressure
   * (`navigator.storage.persisted()`); `undefined` where the API is missing.
   */
  readonly persisted: boolean | undefined;
}

/**
 * One engine package's models on disk: list, delete, and ask the browser to
 * keep them. `wllamaModelStorage()`, `webllmModelStorage()` and (read-only,
 * the browser's own models) `browserAIModelStorage()` return one;
 * `useModelStorage(storage)` and `<ModelManager storage>` in `@inkling/react` read it.
 *
 * @example
 * const { models, room } = await storage.read();
 * for (const m of models) console.log(m.model, m.bytes, m.complete ? 'downloaded' : 'partial');
 * if (!(await storage.persist())) console.warn('The browser may evict the models under storage pressure.');
 */
export interface ModelStorage {
  /** Everything stored, with the origin's figures. Rejects with `StorageUnavailableError` (the engine package's) where storage is missing. */
  read(): Promise<ModelStorageState>;
  /**
   * Deletes one model's stored files (a partial download too). Rejects, deleting
   * nothing, while this or another tab downloads or loads it (`ModelInUseError`),
   * and for a model the page cannot delete (see `StoredModel.cannotDelete`).
   */
  delete(model: string): Promise<void>;
  /** Deletes every model this storage holds (skipping none silently: rejects as `delete` does, after deleting the rest). */
  deleteAll(): Promise<void>;
  /**
   * Asks the browser to keep this origin's storage under pressure
   * (`navigator.storage.persist()`); resolves with whether it is granted
   * (`false` where the API is missing).
   */
  persist(): Promise<boolean>;
}

/** The part of `navigator.storage` model storage uses; inject it to test or to wrap it. */
export interface StorageManagerLike {
  estimate?(): Promise<{ usage?: number; quota?: number }>;
  persist?(): Promise<boolean>;
  persisted?(): Promise<boolean>;
  getDirectory?(): Promise<FileSystemDirectoryHandle>;
}
