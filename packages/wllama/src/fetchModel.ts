import { ModelFetchError } from './errors.js';

/** What `fetchModel` needs. */
export interface FetchModelRequest {
  url: string;
  fetch: (input: string, init: RequestInit) => Promise<Response>;
  signal: AbortSignal;
  /** Longest wait for the response headers; `Infinity` for none. */
  timeoutMs: number;
  /** Called as bytes arrive: received so far, and the size (`0` when unknown). */
  onBytes: (loaded: number, total: number) => void;
}

/**
 * Downloads a model file into a `Blob`, reporting bytes as they arrive.
 * Rejects with `ModelFetchError` on an error status or no answer, and with
 * the signal's reason when it aborts. The browser's HTTP cache applies, so a
 * server that allows caching makes a second visit fast.
 *
 * @example
 * const blob = await fetchModel({ url, fetch, signal, timeoutMs: Infinity, onBytes: (n, total) => {} });
 */
export async function fetchModel(request: FetchModelRequest): Promise<Blob> {
  const { url, signal } = request;
  const controller = new AbortController();
  const onAbort = () => controller.abort(signal.reason);
  signal.addEventListener('abort', onAbort, { once: true });
  if (signal.aborted) onAbort();
  let timer: ReturnType<typeof setTimeout> | undefined;
  if (Number.isFinite(request.timeoutMs)) timer = setTimeout(() => controller.abort(new Error('timed out')), request.timeoutMs);
  try {
    let response: Response;
    try {
      response = await request.fetch(url, { signal: controller.signal });
    } catch (error) {
      if (signal.aborted) throw signal.reason;
      throw new ModelFetchError(url, 0, { cause: error });
    } finally {
      clearTimeout(timer);
    }
    if (!response.ok) {
      await response.body?.cancel().catch(() => {});
      throw new ModelFetchError(url, response.status);
    }
    const total = Number(response.headers.get('content-length') ?? 0) || 0;
    return await readAll(response, total, request, signal);
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
}

async function readAll(response: Response, total: number, request: FetchModelRequest, signal: AbortSignal): Promise<Blob> {
  const parts: Uint8Array[] = [];
  let loaded = 0;
  request.onBytes(0, total);
  if (!response.body) return new Blob([await response.arrayBuffer()]);
  const reader = response.body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      parts.push(value);
      loaded += value.byteLength;
      request.onBytes(loaded, total);
    }
  } catch (error) {
    if (signal.aborted) throw signal.reason;
    throw new ModelFetchError(request.url, 0, { cause: error });
  }
  return new Blob(parts as BlobPart[]);
}
