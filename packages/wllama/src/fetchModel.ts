import type { PoolTimers } from '@inkling/scheduler';
import { ModelFetchError } from '@inkling/scheduler';

/** What `fetchModel` needs. */
export interface FetchModelRequest {
  url: string;
  fetch: (input: string, init: RequestInit) => Promise<Response>;
  signal: AbortSignal;
  /** Longest wait for the response headers; `Infinity` for none. */
  timeoutMs: number;
  /** Timers for that wait (`globalTimers` from `@inkling/scheduler` in the engines). */
  timers: PoolTimers;
  /** Called as bytes arrive: received so far, and the size (`0` when unknown). */
  onBytes: (loaded: number, total: number) => void;
}

/**
 * Sends one request for the model file and resolves with its response once
 * the headers are in. Rejects with `ModelFetchError` (status 0) when nothing
 * answers within `timeoutMs`, and with the signal's reason when it aborts;
 * the body keeps streaming under the same signal.
 *
 * @example
 * const response = await requestModel(request, { headers: { range: 'bytes=100-' } });
 */
export async function requestModel(request: Omit<FetchModelRequest, 'onBytes'>, init: RequestInit = {}): Promise<Response> {
  const { url, signal, timers } = request;
  const controller = new AbortController();
  const onAbort = () => controller.abort(signal.reason);
  signal.addEventListener('abort', onAbort, { once: true });
  if (signal.aborted) onAbort();
  let timer: unknown;
  if (Number.isFinite(request.timeoutMs)) timer = timers.setTimeout(() => controller.abort(new Error('timed out')), request.timeoutMs);
  try {
    return await request.fetch(url, { ...init, signal: controller.signal });
  } catch (error) {
    signal.removeEventListener('abort', onAbort);
    if (signal.aborted) throw signal.reason;
    throw fetchFailed(url, 0, error);
  } finally {
    if (timer !== undefined) timers.clearTimeout(timer);
  }
}

/**
 * Downloads a model file into a `Blob` in memory, reporting bytes as they
 * arrive: the path where the browser gives no storage (`storage: false`, a
 * private window). Rejects with `ModelFetchError` on an error status or no
 * answer, and with the signal's reason when it aborts.
 *
 * @example
 * const blob = await fetchModel({ url, fetch, signal, timeoutMs: Infinity, timers: globalTimers, onBytes: (n, total) => {} });
 */
export async function fetchModel(request: FetchModelRequest): Promise<Blob> {
  const response = await requestModel(request);
  if (!response.ok) {
    await response.body?.cancel().catch(() => {});
    throw fetchFailed(request.url, response.status);
  }
  const total = Number(response.headers.get('content-length') ?? 0) || 0;
  const parts: Uint8Array[] = [];
  let loaded = 0;
  request.onBytes(0, total);
  await readBody(response, request.url, request.signal, (chunk) => {
    parts.push(chunk);
    loaded += chunk.byteLength;
    request.onBytes(loaded, total);
  });
  return new Blob(parts as BlobPart[]);
}

/**
 * Reads a response's body chunk by chunk (awaiting `onChunk` before the next
 * read). A cut connection is a `ModelFetchError`; an abort, the signal's reason.
 *
 * @example
 * await readBody(response, url, signal, async (chunk) => writer.write(chunk));
 */
export async function readBody(
  response: Response,
  url: string,
  signal: AbortSignal,
  onChunk: (chunk: Uint8Array) => void | Promise<void>,
): Promise<void> {
  if (!response.body) {
    await onChunk(new Uint8Array(await response.arrayBuffer()));
    return;
  }
  const reader = response.body.getReader();
  for (;;) {
    let next: ReadableStreamReadResult<Uint8Array>;
    try {
      next = await reader.read();
    } catch (error) {
      if (signal.aborted) throw signal.reason;
      throw new ModelFetchError(
        `The download of the model file ${url} was cut off (the connection broke). What arrived is kept; load again to fetch the rest.`,
        { device: 'cpu', model: url, url, cause: error },
      );
    }
    if (next.done) return;
    try {
      await onChunk(next.value);
    } catch (error) {
      await reader.cancel().catch(() => {});
      throw error;
    }
  }
}

/**
 * The `ModelFetchError` for a model file that did not come: `status` `0` when nothing answered.
 *
 * @example
 * if (!response.ok) throw fetchFailed(url, response.status);
 */
export function fetchFailed(url: string, status: number, cause?: unknown): ModelFetchError {
  const why = status
    ? `it answered HTTP ${status}`
    : 'nothing answered (offline, a wrong host, or the server does not allow this origin: CORS)';
  return new ModelFetchError(
    `The model file ${url} could not be fetched: ${why}. Check the URL (a .gguf file) and that this page may fetch it, then load again.`,
    { device: 'cpu', model: url, url, status, cause },
  );
}
