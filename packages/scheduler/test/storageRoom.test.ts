import { describe, expect, it } from 'vitest';
import { NotEnoughStorageError } from '../src/index.js';
import { requestPersistence, storagePersisted, storageRoom } from '../src/storage.js';

describe('storage figures where the browser has them, and where it does not (private windows)', () => {
  it('reads usage, quota and free space, never below 0', async () => {
    expect(await storageRoom({ estimate: async () => ({ usage: 300, quota: 1000 }) })).toEqual({ usage: 300, quota: 1000, free: 700 });
    expect(await storageRoom({ estimate: async () => ({ usage: 1200, quota: 1000 }) })).toEqual({ usage: 1200, quota: 1000, free: 0 });
  });

  it('says nothing (undefined) for a missing API, a failing one, or a quota it does not give', async () => {
    expect(await storageRoom(undefined)).toBeUndefined();
    expect(await storageRoom({})).toBeUndefined();
    expect(await storageRoom({ estimate: async () => Promise.reject(new DOMException('denied', 'SecurityError')) })).toBeUndefined();
    expect(await storageRoom({ estimate: async () => ({ usage: 5 }) })).toBeUndefined();
    expect(await storagePersisted({})).toBeUndefined();
    expect(await storagePersisted({ persisted: async () => Promise.reject(new Error('no')) })).toBeUndefined();
  });

  it('asking for persistence resolves with whether it was granted, false where it cannot be asked', async () => {
    expect(await requestPersistence({ persist: async () => true })).toBe(true);
    expect(await requestPersistence({ persist: async () => false })).toBe(false);
    expect(await requestPersistence({})).toBe(false);
    expect(await requestPersistence({ persist: async () => Promise.reject(new Error('no')) })).toBe(false);
  });
});

it('NotEnoughStorageError names both figures and what to free', () => {
  const error = new NotEnoughStorageError('model.gguf', 386_000_000, 120_000_000);
  expect(error).toMatchObject({ name: 'NotEnoughStorageError', needBytes: 386_000_000, freeBytes: 120_000_000, shortBytes: 266_000_000 });
  expect(error.message).toMatch(/model\.gguf needs 386 MB of storage but this site has 120 MB free\. Free at least 266 MB/);
});

it('NotEnoughStorageError never names a negative size: a refusal the estimate did not foresee says what to do', () => {
  // Chrome 138+ reports usage + gigabytes whatever the real quota; a write it then refused carried these figures.
  const error = new NotEnoughStorageError('model.gguf', 9_000_000, 10_738_000_000);
  expect(error.shortBytes).toBe(0);
  expect(error.message).not.toMatch(/\s-\d/);
  expect(error.message).toMatch(/needs 9 MB of storage and the browser refused to store it.*Free space.*then load again/);
  expect(new NotEnoughStorageError('m', NaN, NaN).message).not.toMatch(/NaN|\s-\d/);
});
