import { type StorageManagerLike } from '@inkling/scheduler/storage';
import { StorageUnavailableError } from '@inkling/scheduler';

/** The folder of the origin's OPFS that holds wllama models: one subfolder per model URL. */
const ROOT = 'inkling-wllama-models';
const META = 'meta.json';
const PART = /^part-(\d{15})$/;

/** What is written beside a model's bytes. `complete` is the completion marker, set only after the bytes are checked. */
export interface ModelMeta {
  url: string;
  totalBytes: number | undefined;
  etag: string | undefined;
  lastModified: string | undefined;
  sha256: string | undefined;
  complete: boolean;
  lastUsed: number | undefined;
}

/** One stored part: the bytes from `offset` on, in its own file (written and committed on its own, so a cut keeps the parts before it). */
export interface StoredPart {
  name: string;
  offset: number;
  file: File;
}

/** A model's folder, read once. */
export interface ModelEntry {
  readonly key: string;
  readonly dir: FileSystemDirectoryHandle;
  meta: ModelMeta | undefined;
  /** Parts in order, each starting where the one before ends; parts after a gap are dropped on read. */
  parts: StoredPart[];
  /** Sum of the parts' sizes. */
  bytes: number;
}

/** The part of an OPFS writable Inkling uses. */
export interface PartWriter {
  write(data: Uint8Array): Promise<void>;
  close(): Promise<void>;
  abort(): Promise<void>;
}

/**
 * wllama models in the origin private file system (OPFS): per model URL a
 * folder with `meta.json` (URL, size, validators, completion marker, last use)
 * and the bytes in parts named by their offset (`part-000000000000000`), each
 * committed when written, so a download cut or a tab closed keeps what arrived.
 *
 * @example
 * const store = await ModelStore.open(navigator.storage);
 * const entry = await store.entry('https://example.com/m.gguf');
 */
export class ModelStore {
  readonly #root: FileSystemDirectoryHandle;

  private constructor(root: FileSystemDirectoryHandle) {
    this.#root = root;
  }

  /** Opens the store; rejects with `StorageUnavailableError` where OPFS is missing or refused. */
  static async open(storage: StorageManagerLike | undefined): Promise<ModelStore> {
    if (typeof storage?.getDirectory !== 'function') throw new StorageUnavailableError('navigator.storage.getDirectory is missing');
    // Writing from the page needs createWritable (some browsers offer OPFS writes only in workers).
    const handleClass = (globalThis as { FileSystemFileHandle?: { prototype: object } }).FileSystemFileHandle;
    if (handleClass && !('createWritable' in handleClass.prototype))
      throw new StorageUnavailableError('files in the origin private file system cannot be written from the page');
    let root: FileSystemDirectoryHandle;
    try {
      root = await (await storage.getDirectory()).getDirectoryHandle(ROOT, { create: true });
    } catch (error) {
      throw new StorageUnavailableError('the origin private file system refused access', { cause: error });
    }
    const probe = root as unknown as { getFileHandle: unknown };
    if (typeof probe.getFileHandle !== 'function') throw new StorageUnavailableError('the origin private file system cannot write files');
    return new ModelStore(root);
  }

  /** The folder's name for a model URL (a hash of the absolute URL). */
  static async keyOf(url: string): Promise<string> {
    const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(url));
    return [...new Uint8Array(digest).slice(0, 16)].map((b) => b.toString(16).padStart(2, '0')).join('');
  }

  /** Reads (creating when asked) a model's folder. `undefined` when absent and not created. */
  async entry(url: string, create = true): Promise<ModelEntry | undefined> {
    const key = await ModelStore.keyOf(url);
    let dir: FileSystemDirectoryHandle;
    try {
      dir = await this.#root.getDirectoryHandle(key, { create });
    } catch (error) {
      if (!create && (error as Error)?.name === 'NotFoundError') return undefined;
      throw error;
    }
    return this.#read(key, dir);
  }

  /** Every model folder. */
  async entries(): Promise<ModelEntry[]> {
    const out: ModelEntry[] = [];
    for await (const [name, handle] of iterate(this.#root)) {
      if (handle.kind === 'directory') out.push(await this.#read(name, handle as FileSystemDirectoryHandle));
    }
    return out;
  }

  /** Deletes a model's folder, bytes and marker together. */
  async remove(key: string): Promise<void> {
    try {
      await this.#root.removeEntry(key, { recursive: true });
    } catch (error) {
      if ((error as Error)?.name !== 'NotFoundError') throw error;
    }
  }

  async #read(key: string, dir: FileSystemDirectoryHandle): Promise<ModelEntry> {
    const entry: ModelEntry = { key, dir, meta: undefined, parts: [], bytes: 0 };
    return refreshEntry(entry);
  }
}

/**
 * Reads a model's folder again (File objects are snapshots): the marker, and
 * the run of parts that tile the file from byte 0. Parts after a gap or an
 * overlap cannot be trusted and are deleted.
 */
export async function refreshEntry(entry: ModelEntry): Promise<ModelEntry> {
  const found: StoredPart[] = [];
  entry.meta = undefined;
  for await (const [name, handle] of iterate(entry.dir)) {
    if (handle.kind !== 'file') continue;
    const file = await (handle as FileSystemFileHandle).getFile();
    if (name === META) entry.meta = await parseMeta(file);
    const match = PART.exec(name);
    if (match) found.push({ name, offset: Number(match[1]), file });
  }
  found.sort((a, b) => a.offset - b.offset);
  entry.parts = [];
  entry.bytes = 0;
  for (const part of found) {
    if (part.offset !== entry.bytes || part.file.size === 0) break;
    entry.parts.push(part);
    entry.bytes += part.file.size;
  }
  for (const part of found.slice(entry.parts.length)) await entry.dir.removeEntry(part.name).catch(() => {});
  return entry;
}

/** Writes `meta.json` (replacing it whole: a writable commits on close). */
export async function writeMeta(entry: ModelEntry, meta: ModelMeta): Promise<void> {
  const handle = await entry.dir.getFileHandle(META, { create: true });
  const writable = await (handle as unknown as { createWritable(): Promise<WritableLike> }).createWritable();
  await writable.write(new TextEncoder().encode(JSON.stringify(meta)));
  await writable.close();
  entry.meta = meta;
}

/** Opens a new part starting at `offset`. */
export async function openPart(entry: ModelEntry, offset: number): Promise<PartWriter> {
  const name = `part-${String(offset).padStart(15, '0')}`;
  const handle = await entry.dir.getFileHandle(name, { create: true });
  const writable = await (handle as unknown as { createWritable(): Promise<WritableLike> }).createWritable();
  return {
    write: (data) => writable.write(data),
    close: () => writable.close(),
    abort: () => writable.abort(),
  };
}

/** Deletes every part (and the marker), keeping the folder: the download starts over. */
export async function clearEntry(entry: ModelEntry): Promise<void> {
  const names: string[] = [];
  for await (const [name] of iterate(entry.dir)) names.push(name);
  for (const name of names) await entry.dir.removeEntry(name).catch(() => {});
  entry.parts = [];
  entry.bytes = 0;
  entry.meta = undefined;
}

/** The stored bytes as one Blob (the parts' files joined without copying them). */
export function entryBlob(entry: ModelEntry): Blob {
  return new Blob(entry.parts.map((p) => p.file));
}

interface WritableLike {
  write(data: Uint8Array): Promise<void>;
  close(): Promise<void>;
  abort(): Promise<void>;
}

function iterate(dir: FileSystemDirectoryHandle): AsyncIterable<[string, FileSystemHandle]> {
  return (dir as unknown as { entries(): AsyncIterable<[string, FileSystemHandle]> }).entries();
}

async function parseMeta(file: File): Promise<ModelMeta | undefined> {
  try {
    const value = JSON.parse(await file.text()) as Partial<ModelMeta>;
    if (typeof value.url !== 'string') return undefined;
    return {
      url: value.url,
      totalBytes: typeof value.totalBytes === 'number' ? value.totalBytes : undefined,
      etag: value.etag ?? undefined,
      lastModified: value.lastModified ?? undefined,
      sha256: value.sha256 ?? undefined,
      complete: value.complete === true,
      lastUsed: typeof value.lastUsed === 'number' ? value.lastUsed : undefined,
    };
  } catch {
    return undefined;
  }
}
