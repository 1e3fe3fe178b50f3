import {
  ensureStorageRoom,
  type LockManagerLike,
  type StorageManagerLike,
  storageFullError,
  withModelLock,
} from '@inkling/scheduler/storage';
import { ModelUnreadableError, type PoolTimers } from '@inkling/scheduler';
import { fetchFailed, readBody, requestModel } from '../fetchModel.js';
import { checkStored } from './checkStored.js';
import {
  clearEntry,
  entryBlob,
  type ModelEntry,
  type ModelMeta,
  ModelStore,
  openPart,
  type PartWriter,
  refreshEntry,
  writeMeta,
} from './modelStore.js';

/** Bytes per part file: what a tab closed mid-download can lose at most. */
export const PART_BYTES = 8 * 1024 * 1024;

/** The Web Lock a stored model's download, load and delete take (`key`: the store's folder name). */
export const modelLockName = (key: string): string => `inkling-wllama-model:${key}`;

/** What `withStoredModel` needs. */
export interface StoredModelRequest {
  /** Absolute model URL (the store's key). */
  url: string;
  /** The file's name, for messages. */
  name: string;
  fetch: (input: string, init: RequestInit) => Promise<Response>;
  signal: AbortSignal;
  timeoutMs: number;
  timers: PoolTimers;
  storage: StorageManagerLike;
  locks: LockManagerLike | undefined;
  /** The size from a catalogue: the room check then needs no request. */
  sizeBytes: number | undefined;
  sha256: string | undefined;
  /** Bytes in the store for this model (resumed ones included), and the size (`0` when unknown). */
  onBytes: (loaded: number, total: number) => void;
  /** Wall clock for `lastUsed`. */
  now: () => number;
}

/**
 * Makes sure a model is stored whole and checked (downloading what is
 * missing: the rest with a range request where the server allows it, all of
 * it where not), then runs `use` on its bytes while holding the model's lock,
 * so no other tab downloads or deletes it meanwhile. When `use` fails with an
 * error `isBadFile` accepts (llama.cpp refused the file), a copy stored by an
 * earlier visit is deleted, downloaded again and tried once more; a copy
 * downloaded in this call is deleted and the error passes on.
 *
 * @example
 * const engine = await withStoredModel(request, (blob) => loadIntoWllama(blob), (e) => e instanceof ModelUnreadableError);
 */
export async function withStoredModel<T>(
  request: StoredModelRequest,
  use: (blob: Blob) => Promise<T>,
  isBadFile: (error: unknown) => boolean,
): Promise<T> {
  const store = await ModelStore.open(request.storage);
  const key = await ModelStore.keyOf(request.url);
  return withModelLock(request.locks, modelLockName(key), { signal: request.signal }, async () => {
    const entry = (await store.entry(request.url))!;
    const fresh = await ensureStored(entry, request);
    try {
      return await use(entryBlob(entry));
    } catch (error) {
      if (!isBadFile(error)) throw error;
      await clearEntry(entry);
      if (fresh) throw error;
      await ensureStored(entry, request);
      try {
        return await use(entryBlob(entry));
      } catch (again) {
        if (isBadFile(again)) await clearEntry(entry);
        throw again;
      }
    }
  });
}

/** Resolves `true` when it downloaded (some of) the model, `false` when the stored copy was whole and checked. */
async function ensureStored(entry: ModelEntry, request: StoredModelRequest): Promise<boolean> {
  const problem = await checkStored(entry, { sha256: request.sha256 });
  if (problem === undefined) {
    request.onBytes(entry.bytes, entry.bytes);
    await writeMeta(entry, { ...entry.meta!, lastUsed: request.now() });
    return false;
  }
  // A partial copy keeps its bytes for a range request; anything else starts over.
  if (problem !== 'partial') await clearEntry(entry);
  await download(entry, request, true);
  return true;
}

async function download(entry: ModelEntry, request: StoredModelRequest, mayResume: boolean): Promise<void> {
  const validator = entry.meta?.etag ?? entry.meta?.lastModified;
  if (entry.bytes > 0 && (!mayResume || validator === undefined)) await clearEntry(entry);
  const total = request.sizeBytes ?? entry.meta?.totalBytes ?? (await headSize(request));
  if (total !== undefined) await checkRoom(request, total - entry.bytes);
  const resume = entry.bytes > 0;
  const headers: Record<string, string> = resume ? { range: `bytes=${entry.bytes}-`, 'if-range': validator! } : {};
  const response = await requestModel(request, { headers });
  if (resume && (response.status === 416 || (response.status === 206 && !continuesStored(response, entry)))) {
    // The server's idea of the file differs from what is stored (a server that honours Range but
    // ignores If-Range sends the new version's rest): fetch it whole rather than splice two versions.
    await response.body?.cancel().catch(() => {});
    return download(entry, request, false);
  }
  if (!response.ok) {
    await response.body?.cancel().catch(() => {});
    throw fetchFailed(request.url, response.status);
  }
  // 200 to a range request: the server has no ranges, or the file changed (If-Range); start over.
  if (resume && response.status !== 206) await clearEntry(entry);
  const size = response.status === 206 ? rangeTotal(response) : Number(response.headers.get('content-length') ?? '') || undefined;
  const meta: ModelMeta = {
    url: request.url,
    totalBytes: size ?? total,
    etag: response.headers.get('etag') ?? undefined,
    lastModified: response.headers.get('last-modified') ?? undefined,
    sha256: request.sha256,
    complete: false,
    lastUsed: request.now(),
  };
  if (meta.totalBytes !== undefined && meta.totalBytes !== total) await checkRoom(request, meta.totalBytes - entry.bytes, response);
  await writeMeta(entry, meta);
  await writeBody(entry, response, request, meta.totalBytes ?? 0);
  const stored = await refreshEntry(entry);
  if (meta.totalBytes === undefined) meta.totalBytes = stored.bytes;
  await writeMeta(entry, { ...meta, complete: true });
  const problem = await checkStored(entry, { sha256: request.sha256 });
  if (problem !== undefined) {
    await clearEntry(entry);
    throw new ModelUnreadableError(
      problem === 'hash'
        ? `The downloaded ${request.name} does not match its SHA-256 (${request.sha256}): the file on the server differs from the catalogue's. It was not kept.`
        : `The downloaded ${request.name} is not a GGUF model (${problem === 'not-gguf' ? 'it does not start with "GGUF"' : `${stored.bytes} of ${meta.totalBytes} bytes arrived`}). It was not kept; check the URL.`,
      { device: 'cpu', model: request.name },
    );
  }
}

async function writeBody(entry: ModelEntry, response: Response, request: StoredModelRequest, total: number): Promise<void> {
  let offset = entry.bytes;
  let writer: PartWriter | undefined;
  let inPart = 0;
  request.onBytes(offset, total);
  try {
    await readBody(response, request.url, request.signal, async (chunk) => {
      if (writer === undefined || inPart >= PART_BYTES) {
        await writer?.close();
        writer = await openPart(entry, offset);
        inPart = 0;
      }
      await writer.write(chunk);
      inPart += chunk.byteLength;
      offset += chunk.byteLength;
      request.onBytes(offset, total);
    });
    await writer?.close();
  } catch (error) {
    if (isQuotaError(error)) {
      await writer?.abort().catch(() => {});
      // Nothing half-written stays: the space goes back, and the error names the figures.
      await clearEntry(entry);
      throw await storageFullError(request.storage, request.name, total || offset, error);
    }
    // A cut or a cancel: commit what arrived, marked incomplete, for the next load to resume.
    await writer?.close().catch(() => {});
    throw error;
  }
}

/** `ensureStorageRoom`: the estimate, then the browser asked to reserve `need` bytes (Chrome's estimate overstates the room). */
async function checkRoom(request: StoredModelRequest, need: number, response?: Response): Promise<void> {
  try {
    await ensureStorageRoom(request.storage, request.name, need);
  } catch (error) {
    await response?.body?.cancel().catch(() => {});
    throw error;
  }
}

/** The size from a `HEAD` request, when the server says; `undefined` otherwise. */
async function headSize(request: StoredModelRequest): Promise<number | undefined> {
  try {
    const response = await requestModel(request, { method: 'HEAD' });
    const size = Number(response.headers.get('content-length') ?? '');
    return response.ok && size > 0 ? size : undefined;
  } catch (error) {
    if (request.signal.aborted) throw error;
    return undefined;
  }
}

/**
 * Whether a 206 continues the stored bytes: it starts where they end, is of
 * the stored file's size, and carries the stored validator (the ETag where
 * both have one, else the Last-Modified date). A part with neither cannot be
 * vouched for.
 */
function continuesStored(response: Response, entry: ModelEntry): boolean {
  const meta = entry.meta;
  if (rangeStart(response) !== entry.bytes) return false;
  const total = rangeTotal(response);
  if (total !== undefined && meta?.totalBytes !== undefined && total !== meta.totalBytes) return false;
  const etag = response.headers.get('etag') ?? undefined;
  if (meta?.etag !== undefined && etag !== undefined) return etag === meta.etag;
  const lastModified = response.headers.get('last-modified') ?? undefined;
  return meta?.lastModified !== undefined && lastModified === meta.lastModified;
}

function rangeStart(response: Response): number | undefined {
  const match = /^bytes (\d+)-\d+\/(\d+|\*)$/.exec(response.headers.get('content-range') ?? '');
  return match ? Number(match[1]) : undefined;
}

function rangeTotal(response: Response): number | undefined {
  const match = /^bytes \d+-\d+\/(\d+)$/.exec(response.headers.get('content-range') ?? '');
  return match ? Number(match[1]) : undefined;
}

function isQuotaError(error: unknown): boolean {
  return (error as { name?: unknown })?.name === 'QuotaExceededError';
}
