import {
  defaultLocks,
  defaultStorageManager,
  deleteEach,
  deleteUnlessInUse,
  type LockManagerLike,
  modelLockHeld,
  requestPersistence,
  type StorageManagerLike,
  storagePersisted,
  storageRoom,
} from '@inkling/scheduler/storage';
import { type ModelStorage, type ModelStorageState, type StoredModel } from '@inkling/scheduler';
import { type ModelEntry, ModelStore } from './modelStore.js';
import { modelLockName } from './storedModel.js';

/** Options of `wllamaModelStorage`. */
export interface WllamaModelStorageOptions {
  /** The storage the engines use (their `storage` option). Default: `navigator.storage`, looked up when used. */
  storage?: StorageManagerLike;
  /** Web Locks, so a model being downloaded or loaded in any tab is not deleted. Default: `navigator.locks`, looked up when used. */
  locks?: LockManagerLike;
}

/**
 * The wllama models stored in this origin (by `wllamaEngines`, in the origin
 * private file system) as a `ModelStorage`: list them with their size and
 * whether they are whole, delete one or all, ask the browser to keep them.
 * A model being downloaded or loaded in any tab says so (`busy`) and is
 * not deleted (`ModelInUseError`); one already loaded keeps running from memory, and the
 * next load downloads it again. Where the browser gives no storage, `read()`
 * rejects with `StorageUnavailableError`.
 *
 * @example
 * const storage = wllamaModelStorage();
 * const { models } = await storage.read();
 * await storage.delete(models[0].model);
 */
export function wllamaModelStorage(options: WllamaModelStorageOptions = {}): ModelStorage {
  const manager = () => options.storage ?? defaultStorageManager();
  const locks = () => options.locks ?? defaultLocks();
  const removeEntry = (store: ModelStore, entry: ModelEntry, model: string) =>
    deleteUnlessInUse(locks(), modelLockName(entry.key), model, () => store.remove(entry.key));
  return {
    async read(): Promise<ModelStorageState> {
      const store = await ModelStore.open(manager());
      const entries = await store.entries();
      const described = await Promise.all(
        entries.map(async (entry) => {
          const model = describe(entry);
          if (!model || !(await modelLockHeld(locks(), modelLockName(entry.key)))) return model;
          // One lock for both: a whole copy is being loaded, anything less downloaded.
          return { ...model, busy: model.complete ? ('loading' as const) : ('downloading' as const) };
        }),
      );
      const models = described.filter((m): m is StoredModel => m !== undefined);
      models.sort((a, b) => (b.lastUsed ?? 0) - (a.lastUsed ?? 0));
      return { models, room: await storageRoom(manager()), persisted: await storagePersisted(manager()) };
    },
    async delete(model: string): Promise<void> {
      const store = await ModelStore.open(manager());
      const url = new URL(model, globalThis.location?.href).href;
      // A folder without its marker is listed by its key: take that too.
      const entry = (await store.entry(url, false)) ?? (await store.entries()).find((e) => e.key === model);
      if (entry) await removeEntry(store, entry, model);
    },
    async deleteAll(): Promise<void> {
      const store = await ModelStore.open(manager());
      await deleteEach(await store.entries(), (entry) => removeEntry(store, entry, entry.meta?.url ?? entry.key));
    },
    persist: () => requestPersistence(manager()),
  };
}

function describe(entry: ModelEntry): StoredModel | undefined {
  // A folder without its marker's URL is a download that never wrote its first byte.
  if (!entry.meta)
    return entry.bytes > 0
      ? { model: entry.key, bytes: entry.bytes, totalBytes: undefined, complete: false, lastUsed: undefined }
      : undefined;
  const { url, totalBytes, complete, lastUsed } = entry.meta;
  return { model: url, bytes: entry.bytes, totalBytes, complete: complete && totalBytes === entry.bytes, lastUsed };
}
