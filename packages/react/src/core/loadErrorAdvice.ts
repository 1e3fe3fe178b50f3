/** Advice for errors by `name`: what a person can do about a failed model load. */
const ADVICE: Readonly<Record<string, string>> = {
  WebGPUUnavailableError:
    'This browser cannot run the model on the GPU (no WebGPU). Open the page in Chrome or Edge 113+ or Safari 26+ with WebGPU turned on, or use a server or simulated engine instead.',
  ShaderF16UnsupportedError: 'This GPU lacks 16-bit float shaders. Pick the f32 build of the model (its id ends in q4f32_1).',
  OutOfMemoryError:
    'The GPU ran out of memory. Close other GPU-heavy tabs, pick a smaller model, or use fewer engines (pool size 1), then try again.',
  GPUDeviceLostError: 'The GPU was reset (a driver update, sleep, or memory pressure). Try again.',
  ModelLoadError:
    'The model files could not be downloaded. Check the network connection and that the model URL is right and allows this site (CORS), then try again.',
  ModelNotFoundError: 'There is no model with this id. Pick one from the model list, or check the id for typos.',
  WebLLMUnavailableError: 'The WebLLM library could not be loaded. Install @mlc-ai/web-llm next to @inkling/webllm.',
  LoadCancelledError: 'Loading was cancelled. Load the model again when you are ready.',
  WorkerCrashedError: 'The model’s worker crashed. Try again; if it keeps happening, reload the page.',
  QuotaExceededError: 'There is not enough storage for the model. Free some disk space or clear old models, then try again.',
};

/**
 * What a person can do about a model that failed to load, chosen by the
 * error's `name` (or its `cause`'s, for a wrapped error): no WebGPU, out of
 * GPU memory, a model URL that fails, and the other errors `@inkling/webllm`
 * throws. Falls back to the error's own message, which Inkling writes to be
 * acted on.
 *
 * @example
 * const { error } = useModelLoad();
 * if (error) return <p role="alert">{loadErrorAdvice(error)}</p>;
 */
export function loadErrorAdvice(error: { name?: string; message?: string; cause?: unknown }): string {
  for (let current: unknown = error, depth = 0; current && typeof current === 'object' && depth < 4; depth += 1) {
    const name = (current as { name?: unknown }).name;
    if (typeof name === 'string' && Object.hasOwn(ADVICE, name)) return ADVICE[name] as string;
    current = (current as { cause?: unknown }).cause;
  }
  return error.message || 'The model could not be loaded. Try again.';
}
