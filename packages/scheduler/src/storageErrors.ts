import { EngineLoadError, InklingError } from './errors.js';

/** Megabytes, rounded up; never below 0, and `?` for a size nobody knows. */
const mb = (bytes: number) => (Number.isFinite(bytes) ? `${Math.ceil(Math.max(0, bytes) / 1_000_000)} MB` : '? MB');

/**
 * A model does not fit in the storage this origin has left: refused before
 * the first byte is fetched, or refused by the browser mid-download.
 * `needBytes` is what the download still needs, `freeBytes` what is free:
 * what the browser lets the origin reserve where it could be asked (Chrome's
 * `navigator.storage.estimate()` overstates it), else the estimate.
 *
 * @example
 * if (error instanceof NotEnoughStorageError) show(`Free ${error.shortBytes} bytes, then load again.`);
 */
export class NotEnoughStorageError extends EngineLoadError {
  override name = 'NotEnoughStorageError';
  override readonly kind = 'storage-full';
  readonly model: string;
  readonly needBytes: number;
  readonly freeBytes: number;
  /** `needBytes - freeBytes`: what must be freed. */
  readonly shortBytes: number;

  constructor(model: string, needBytes: number, freeBytes: number, options?: { cause?: unknown }) {
    super(
      needBytes > freeBytes
        ? `${model} needs ${mb(needBytes)} of storage but this site has ${mb(freeBytes)} free. ` +
            `Free at least ${mb(needBytes - freeBytes)} (delete stored models you no longer use, or other site data), or pick a smaller model, then load again. Nothing was stored.`
        : // The browser refused although its estimate said there was room (Chrome's estimate is no real limit).
          `${model} needs ${mb(needBytes)} of storage and the browser refused to store it, though it reports more free. ` +
            `Free space (delete stored models you no longer use, or other site data), leave a private window, or pick a smaller model, then load again. Nothing was stored.`,
      options,
    );
    this.model = model;
    this.needBytes = needBytes;
    this.freeBytes = freeBytes;
    this.shortBytes = Math.max(0, needBytes - freeBytes);
  }
}

/**
 * This browser gives the page no storage for models (a private window, an
 * embedded browser without `navigator.storage`, storage blocked in settings).
 * Loads still work, downloading each time; listing and deleting cannot.
 *
 * @example
 * storage.read().catch((e) => { if (e instanceof StorageUnavailableError) hideModelManager(); });
 */
export class StorageUnavailableError extends InklingError {
  override name = 'StorageUnavailableError';
  override readonly kind = 'setup';

  constructor(what: string, options?: { cause?: unknown }) {
    super(
      `Model storage is not available in this browser (${what}); a private window or blocked site data does this. Models download again on each visit.`,
      options,
    );
  }
}

/**
 * A stored model cannot be deleted now: this or another tab is downloading or
 * loading it. Nothing was deleted.
 *
 * @example
 * try { await storage.delete(url); } catch (e) { if (e instanceof ModelInUseError) show('Wait for the download to end.'); }
 */
export class ModelInUseError extends InklingError {
  override name = 'ModelInUseError';
  override readonly kind = 'refused';
  readonly model: string;

  constructor(model: string, options?: { cause?: unknown }) {
    super(
      `${model} is being downloaded or loaded (in this or another tab), so it was not deleted. Try again when the load ends, or unload the pools using it.`,
      options,
    );
    this.model = model;
  }
}
