import { InklingError, ModelFetchError, ModelUnreadableError, OutOfMemoryError } from '@inkling/scheduler';
import { asError } from '@inkling/scheduler/engine';
import { GPUDeviceLostError, WebGPUUnavailableError, modelNotFound, shaderF16Unsupported } from '../errors.js';
import { f32Variant } from '../modelCatalogue.js';
import type { WebLLMModelRecord } from '../types.js';

/**
 * What a `fetch` that got no answer says (Chrome, Firefox, Safari, Node's
 * undici, Chrome's net error codes, system error codes): the network failed,
 * whatever file was asked for.
 */
const NO_ANSWER =
  /failed to fetch|networkerror when attempting to fetch|^load failed$|^fetch failed$|network ?error|network connection was lost|ERR_(INTERNET_DISCONNECTED|NETWORK_\w+|CONNECTION_\w+|NAME_NOT_RESOLVED|TIMED_OUT|ADDRESS_UNREACHABLE)|\b(ECONNRESET|ECONNREFUSED|ETIMEDOUT|ENOTFOUND|EAI_AGAIN|UND_ERR_SOCKET)\b/i;

/** Whether `error`, or an error it wraps, says the network failed rather than the file. */
function isNetworkFailure(error: Error, depth = 0): boolean {
  if (error.name === 'NetworkError' || NO_ANSWER.test(error.message)) return true;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && NO_ANSWER.test(code)) return true;
  return depth < 4 && error.cause !== undefined && isNetworkFailure(asError(error.cause), depth + 1);
}

/**
 * The typed error for a failed load, with the original as `cause`.
 * Classified by what happened: a network failure while downloading (`Failed
 * to fetch` and the like, even with no URL in the message) is a
 * `ModelFetchError` (kind `'network'`, retryable, naming the record's URL),
 * not a stored file that cannot be read (`ModelUnreadableError`). It runs in
 * the engine worker, which knows WebLLM's errors and the model's record; the
 * page receives the typed error as it is.
 *
 * @example
 * throw classifyLoadError(reason, 'Qwen2.5-0.5B-Instruct-q4f16_1-MLC', record);
 */
export function classifyLoadError(reason: unknown, model: string, record: WebLLMModelRecord | undefined): InklingError {
  if (reason instanceof InklingError) return reason;
  const error = asError(reason);
  const { name, message } = error;
  if (name === 'ModelNotFoundError') return modelNotFound(model, error);
  if (name === 'WebGPUNotAvailableError' || name === 'WebGPUNotFoundError') {
    return new WebGPUUnavailableError(`the engine's worker found no WebGPU adapter (${message}).`, { cause: error });
  }
  if (name === 'ShaderF16SupportError') return shaderF16Unsupported(model, f32Variant(model), error);
  if (name === 'DeviceLostError' || /out of memory|\bOOM\b|failed to allocate|allocation failed/i.test(message)) {
    const vramRequiredMB = record?.vram_required_MB;
    const need = vramRequiredMB ? ` (it needs about ${Math.round(vramRequiredMB)} MB of GPU memory)` : '';
    return new OutOfMemoryError(
      `The GPU ran out of memory loading "${model}"${need}. Close other GPU-heavy tabs, use a smaller pool (size: 1), or pick a smaller model or a shorter context window.`,
      { device: 'gpu', model, vramRequiredMB, cause: error },
    );
  }
  const detail = `${name}: ${message}`;
  const url = /https?:\/\/[^\s"'`,)]+/.exec(message)?.[0] ?? (isNetworkFailure(error) ? (record?.model ?? model) : undefined);
  if (url !== undefined) {
    return new ModelFetchError(
      `The model "${model}" could not be loaded: fetching ${url} failed (${detail}). Check that the URL is right and reachable from this page (network, CORS, disk quota), then load again.`,
      { device: 'gpu', model, url, cause: error },
    );
  }
  return new ModelUnreadableError(
    `The model "${model}" could not be loaded (${detail}). Load again; if it keeps failing, clear its cache with deleteModel("${model}").`,
    { device: 'gpu', model, cause: error },
  );
}

/**
 * The error to hand the pool for a failed call on a loaded engine (worded in
 * the engine worker, like `classifyLoadError`). A lost
 * device, or an engine that lost its model (WebLLM unloads itself after a
 * device loss), is fatal: the pool replaces the engine.
 *
 * @example
 * try { await call(); } catch (reason) { throw classifyRunError(reason); }
 */
export function classifyRunError(reason: unknown): Error {
  if (reason instanceof InklingError) return reason;
  const error = asError(reason);
  if (
    error.name === 'DeviceLostError' ||
    /device (was |is )?lost/i.test(error.message) ||
    /^(EngineNotLoadedError|ModelNotLoadedError|WorkerEngineModelNotLoadedError)$/.test(error.name)
  ) {
    return new GPUDeviceLostError(
      `The engine's WebGPU device was lost or its model was unloaded (${error.name}: ${error.message}). Inkling is replacing the engine; try again in a moment.`,
      { cause: error },
    );
  }
  return error;
}
