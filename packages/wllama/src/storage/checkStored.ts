import type { ModelEntry } from './modelStore.js';
import { entryBlob } from './modelStore.js';

/** Why a stored model cannot be used as it is. `undefined` when it can. */
export type StoredProblem = 'partial' | 'too-long' | 'not-gguf' | 'hash' | undefined;

/** The four bytes every GGUF file starts with. */
const GGUF_MAGIC = [0x47, 0x47, 0x55, 0x46];

/**
 * Checks a stored model before it is handed to llama.cpp: marked complete,
 * its size what the server said, the GGUF magic at the start, and the
 * SHA-256 where one is known (the whole file is read for that).
 *
 * @example
 * const problem = await checkStored(entry, { sha256 });
 */
export async function checkStored(entry: ModelEntry, expected: { sha256?: string | undefined }): Promise<StoredProblem> {
  const total = entry.meta?.totalBytes;
  if (total !== undefined && entry.bytes > total) return 'too-long';
  if (entry.meta?.complete !== true || (total !== undefined && entry.bytes !== total) || entry.bytes === 0) return 'partial';
  if (!(await hasGgufMagic(entryBlob(entry)))) return 'not-gguf';
  const sha256 = expected.sha256 ?? entry.meta.sha256;
  if (sha256 && (await sha256Hex(entryBlob(entry))) !== sha256.toLowerCase()) return 'hash';
  return undefined;
}

/** Whether a Blob starts with `GGUF`. */
export async function hasGgufMagic(blob: Blob): Promise<boolean> {
  const head = new Uint8Array(await blob.slice(0, 4).arrayBuffer());
  return GGUF_MAGIC.every((byte, i) => head[i] === byte);
}

/** The SHA-256 of a Blob, as lowercase hex (reads it whole into memory: only where a hash is known). */
export async function sha256Hex(blob: Blob): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', await blob.arrayBuffer());
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}
