import type { StorageManagerLike, StorageRoom } from './modelStorage.js';

/**
 * The origin's storage figures from `navigator.storage.estimate()`, or
 * `undefined` where the browser has none (or it fails, as in some private windows).
 *
 * @example
 * const room = await storageRoom(navigator.storage);
 * if (room && room.free < size) warn();
 */
export async function storageRoom(storage: StorageManagerLike | undefined): Promise<StorageRoom | undefined> {
  if (typeof storage?.estimate !== 'function') return undefined;
  try {
    const { usage = 0, quota } = await storage.estimate();
    if (typeof quota !== 'number' || !Number.isFinite(quota)) return undefined;
    return { usage, quota, free: Math.max(0, quota - usage) };
  } catch {
    return undefined;
  }
}

/**
 * Whether the origin's storage is persistent (`navigator.storage.persisted()`);
 * `undefined` where the API is missing or fails.
 *
 * @example
 * const kept = await storagePersisted(navigator.storage);
 */
export async function storagePersisted(storage: StorageManagerLike | undefined): Promise<boolean | undefined> {
  if (typeof storage?.persisted !== 'function') return undefined;
  try {
    return await storage.persisted();
  } catch {
    return undefined;
  }
}

/**
 * Asks for persistent storage (`navigator.storage.persist()`); `false` where
 * the API is missing, fails, or the browser says no.
 *
 * @example
 * const granted = await requestPersistence(navigator.storage);
 */
export async function requestPersistence(storage: StorageManagerLike | undefined): Promise<boolean> {
  if (typeof storage?.persist !== 'function') return false;
  try {
    return (await storage.persist()) === true;
  } catch {
    return false;
  }
}

/**
 * `navigator.storage`, looked up when called; `undefined` outside a browser.
 *
 * @example
 * const storage = options.storage ?? defaultStorageManager();
 */
export function defaultStorageManager(): StorageManagerLike | undefined {
  return (globalThis as { navigator?: { storage?: StorageManagerLike } }).navigator?.storage;
}
