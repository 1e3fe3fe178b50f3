// @vitest-environment node
import { expect, it } from 'vitest';

it('opens one door per audience: the app door holds the pool, its priorities, the store primitive and the errors', async () => {
  const app = await import('../src/index.js');
  expect(Object.keys(app).toSorted()).toEqual([
    'EngineCrashedError',
    'EngineError',
    'EngineLoadError',
    'EnginePool',
    'InklingError',
    'InvalidJobError',
    'InvalidOptionError',
    'InvalidSchemaError',
    'JOB_KIND',
    'LoadCancelledError',
    'ModelFetchError',
    'ModelInUseError',
    'ModelUnreadableError',
    'NotEnoughStorageError',
    'ObjectValidationError',
    'OutOfMemoryError',
    'PRIORITY',
    'PRIORITY_ORDER',
    'SUPERSEDED',
    'StorageUnavailableError',
    'Subscribable',
    'UnsupportedConstraintError',
    'WorkerCrashedError',
  ]);
});

it('keeps the adapter kit on /engine and the storage helpers on /storage, sharing one error vocabulary', async () => {
  const app = await import('../src/index.js');
  const engine = await import('../src/engine.js');
  const storage = await import('../src/storage.js');
  for (const name of ['streamChunk', 'jobResult', 'encodeError', 'decodeError', 'mustBe', 'checkJsonSchema', 'translationRequest']) {
    expect(typeof (engine as Record<string, unknown>)[name]).toBe('function');
    expect(name in app).toBe(false);
  }
  for (const name of ['storageRoom', 'withModelLock', 'deleteUnlessInUse', 'requestPersistence']) {
    expect(typeof (storage as Record<string, unknown>)[name]).toBe('function');
    expect(name in app).toBe(false);
  }
  // The same class object behind every door, so `instanceof` and `isInstance` agree everywhere.
  expect(engine.EngineError).toBe(app.EngineError);
  expect(storage.ModelInUseError).toBe(app.ModelInUseError);
});
