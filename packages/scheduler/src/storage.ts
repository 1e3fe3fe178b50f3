// @inkling/scheduler/storage, the door for model storage: how much room the origin has, keeping
// it, and one lock per model across tabs so a delete never pulls a model from under a load.

export { defaultStorageManager, requestPersistence, storagePersisted, storageRoom } from './storageRoom.js';
export { ensureStorageRoom, storageFullError } from './ensureStorageRoom.js';
export { defaultLocks, deleteEach, deleteUnlessInUse, modelLockHeld, withModelLock } from './modelLock.js';
export type { LockManagerLike, ModelLockOptions } from './modelLock.js';
export type { ModelStorage, ModelStorageState, StorageManagerLike, StorageRoom, StoredModel } from './modelStorage.js';
export { ModelInUseError, NotEnoughStorageError, StorageUnavailableError } from './storageErrors.js';
