import type { StorageManagerLike } from './modelStorage.js';
import { NotEnoughStorageError } from './storageErrors.js';
import { storageRoom } from './storageRoom.js';

/** Probes after the first refusal, narrowing the free space down to `needBytes / 2^PROBES`. */
const PROBES = 10;

/**
 * Checks that `needBytes` more fit in the origin's storage before a download,
 * rejecting with `NotEnoughStorageError` (what it needs, what is free) when
 * they do not. First `navigator.storage.estimate()`; then, since Chrome 138
 * reports the usage plus a made-up margin (gigabytes, whatever the real quota
 * of a private window or a full disk), the browser itself is asked: an empty
 * file in the origin private file system is sized to `needBytes` and
 * dropped unwritten, which the browser refuses (`QuotaExceededError`) when
 * the room is not there. Nothing is kept. Where neither can be asked (no
 * estimate, no OPFS writes from this page), it resolves: the download will say.
 *
 * @example
 * await ensureStorageRoom(navigator.storage, 'Qwen2.5-0.5B', missingBytes);
 */
export async function ensureStorageRoom(storage: StorageManagerLike | undefined, model: string, needBytes: number): Promise<void> {
  if (!(needBytes > 0)) return;
  const room = await storageRoom(storage);
  if (room !== undefined && needBytes > room.free) throw new NotEnoughStorageError(model, needBytes, room.free);
  const free = await reservableBytes(storage, needBytes);
  if (free !== undefined && free < needBytes) throw new NotEnoughStorageError(model, needBytes, free);
}

/**
 * The `NotEnoughStorageError` for a write the browser refused mid-download
 * (`QuotaExceededError`): `freeBytes` is what the browser lets the origin
 * reserve now (from a sized OPFS file, as `ensureStorageRoom` asks), else what
 * `estimate()` says, and the message never names a negative size.
 *
 * @example
 * if (error.name === 'QuotaExceededError') throw await storageFullError(navigator.storage, model, totalBytes, error);
 */
export async function storageFullError(
  storage: StorageManagerLike | undefined,
  model: string,
  needBytes: number,
  cause: unknown,
): Promise<NotEnoughStorageError> {
  const free = (await reservableBytes(storage, needBytes)) ?? (await storageRoom(storage))?.free ?? 0;
  return new NotEnoughStorageError(model, needBytes, free, { cause });
}

/**
 * What the browser lets this origin reserve, up to `upTo` bytes: `upTo` when
 * all of it fits, else the largest size found to fit (to `upTo / 2^PROBES`).
 * `undefined` where the page cannot size an OPFS file.
 */
async function reservableBytes(storage: StorageManagerLike | undefined, upTo: number): Promise<number | undefined> {
  const dir = await probeFolder(storage);
  if (dir === undefined) return undefined;
  const first = await fits(dir, upTo);
  if (first !== false) return first === true ? upTo : undefined;
  let low = 0;
  let high = upTo;
  for (let i = 0; i < PROBES; i += 1) {
    const mid = Math.floor((low + high) / 2);
    const answer = await fits(dir, mid);
    if (answer === undefined) return low;
    if (answer) low = mid;
    else high = mid;
  }
  return low;
}

async function probeFolder(storage: StorageManagerLike | undefined): Promise<FileSystemDirectoryHandle | undefined> {
  if (typeof storage?.getDirectory !== 'function') return undefined;
  try {
    return await storage.getDirectory();
  } catch {
    return undefined;
  }
}

/** Sizes an empty file to `bytes` and drops it: `false` when the browser refuses for quota, `undefined` when it cannot be asked. */
async function fits(dir: FileSystemDirectoryHandle, bytes: number): Promise<boolean | undefined> {
  const name = `inkling-room-${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
  let handle: FileSystemFileHandle;
  try {
    handle = await dir.getFileHandle(name, { create: true });
  } catch {
    return undefined;
  }
  try {
    const writable = await (handle as unknown as { createWritable?(): Promise<SizedWritable> }).createWritable?.();
    if (writable === undefined) return undefined;
    try {
      await writable.truncate(bytes);
      return true;
    } catch (error) {
      return (error as { name?: unknown })?.name === 'QuotaExceededError' ? false : undefined;
    } finally {
      // Dropped unwritten: the file stays empty, and the room goes back.
      await writable.abort().catch(() => {});
    }
  } catch {
    return undefined;
  } finally {
    await dir.removeEntry(name).catch(() => {});
  }
}

interface SizedWritable {
  truncate(size: number): Promise<void>;
  abort(): Promise<void>;
}
