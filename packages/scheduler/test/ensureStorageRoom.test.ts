import { describe, expect, it } from 'vitest';
import { NotEnoughStorageError } from '../src/index.js';
import { ensureStorageRoom, storageFullError } from '../src/storage.js';

/**
 * A storage whose estimate is Chrome 138's (the usage plus 10 GiB) while the browser refuses to
 * size a file past `real` bytes, as a private window does; it counts the files left behind.
 */
function chromeLike(real: number) {
  const files = new Set<string>();
  const dir = {
    getFileHandle: async (name: string) => {
      files.add(name);
      return {
        createWritable: async () => ({
          truncate: async (size: number) => {
            if (size > real) throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
          },
          abort: async () => {},
        }),
      };
    },
    removeEntry: async (name: string) => {
      files.delete(name);
    },
  };
  const storage = {
    estimate: async () => ({ usage: 1_000, quota: 1_000 + 10 * 2 ** 30 }),
    getDirectory: async () => dir as unknown as FileSystemDirectoryHandle,
  };
  return { storage, files };
}

describe('ensureStorageRoom: the browser asked, not only its estimate', () => {
  it('refuses what the estimate would let through, naming the room the browser really gives, and leaves no file', async () => {
    const { storage, files } = chromeLike(3_000_000);
    const error = await ensureStorageRoom(storage, 'model.gguf', 400_000_000).catch((e: unknown) => e as NotEnoughStorageError);
    expect(error).toBeInstanceOf(NotEnoughStorageError);
    expect(error).toMatchObject({ needBytes: 400_000_000 });
    // Found to within a 1024th of the need, never above the real room.
    expect(error!.freeBytes).toBeLessThanOrEqual(3_000_000);
    expect(error!.freeBytes).toBeGreaterThan(3_000_000 - 400_000_000 / 1024);
    expect(error!.message).toMatch(/needs 400 MB of storage but this site has \d MB free\. Free at least 39\d MB/);
    expect(files.size).toBe(0);
  });

  it('lets through what fits; an estimate that already says no is enough; no OPFS leaves the estimate alone', async () => {
    await expect(ensureStorageRoom(chromeLike(3_000_000).storage, 'm', 2_000_000)).resolves.toBeUndefined();
    await expect(ensureStorageRoom({ estimate: async () => ({ usage: 0, quota: 1000 }) }, 'm', 2000)).rejects.toMatchObject({
      freeBytes: 1000,
    });
    await expect(ensureStorageRoom({ estimate: async () => ({ usage: 0, quota: 10_000 }) }, 'm', 2000)).resolves.toBeUndefined();
    await expect(ensureStorageRoom(undefined, 'm', 2000)).resolves.toBeUndefined();
  });

  it('a quota error mid-download is worded with the real room, never a negative size', async () => {
    const error = await storageFullError(
      chromeLike(5_000_000).storage,
      'model.gguf',
      9_000_000,
      new DOMException('full', 'QuotaExceededError'),
    );
    expect(error.freeBytes).toBeLessThanOrEqual(5_000_000);
    expect(error.shortBytes).toBeGreaterThanOrEqual(4_000_000);
    expect(error.cause).toMatchObject({ name: 'QuotaExceededError' });
    expect(error.message).not.toMatch(/\s-\d/);
  });
});
