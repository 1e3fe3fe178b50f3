import { EngineError, InklingError, ModelUnreadableError, OutOfMemoryError, WorkerCrashedError } from '@inkling/scheduler';

const OUT_OF_MEMORY =
  /out of memory|\bOOM\b|cannot enlarge memory|failed to allocate|allocation failed|could not allocate|Array buffer allocation failed/i;

/**
 * The typed error for a load that failed after the file was fetched.
 *
 * @example
 * throw classifyLoadError(reason, 'model.gguf');
 */
export function classifyLoadError(reason: unknown, model: string): InklingError {
  if (reason instanceof InklingError) return reason;
  const detail = describeError(reason);
  if (OUT_OF_MEMORY.test(detail)) {
    return new OutOfMemoryError(
      `Loading ${model} ran out of memory. Pick a smaller model (see cpuModelCatalogue), a smaller "contextSize", or a pool of one engine (size: 1).`,
      { device: 'cpu', model, cause: reason },
    );
  }
  return new ModelUnreadableError(
    `llama.cpp could not load ${model} (${detail}). Check that the URL is a GGUF model of an architecture llama.cpp knows, and that the download was complete.`,
    { device: 'cpu', model, cause: reason },
  );
}

/**
 * The error to hand the pool for a failed call on a loaded engine. A
 * WebAssembly abort (wllama's `RuntimeError`) leaves the worker unusable, so
 * it is fatal and the pool replaces the engine; anything else (a prompt
 * longer than the context, a parameter llama.cpp refuses) belongs to the job.
 *
 * @example
 * try { await call(); } catch (reason) { throw classifyRunError(reason, 'model.gguf'); }
 */
export function classifyRunError(reason: unknown, model: string): InklingError {
  if (reason instanceof InklingError) return reason;
  const detail = describeError(reason);
  if (reason instanceof Error && reason.name === 'RuntimeError') {
    const memory = OUT_OF_MEMORY.test(detail) ? ' It ran out of memory: a smaller contextSize or model helps.' : '';
    return new WorkerCrashedError(
      `The engine's WebAssembly runtime stopped (${detail}).${memory} Inkling is replacing the engine; try again in a moment.`,
      { device: 'cpu', cause: reason },
    );
  }
  if ((reason as { type?: unknown } | null)?.type === 'model_not_loaded') {
    return new EngineError(`The engine for ${model} was unloaded. Submit jobs through a loaded pool; it builds a new engine.`, {
      cause: reason,
    });
  }
  return new EngineError(`llama.cpp refused the request (${detail}).`, { cause: reason });
}

function describeError(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  return typeof error === 'string' ? error : String(error);
}
