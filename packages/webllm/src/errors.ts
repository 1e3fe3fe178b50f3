import { EngineCrashedError, EngineLoadError, type ErrorDevice, LoadCancelledError, ModelUnreadableError } from '@inkling/scheduler';

// WebLLM's own errors. A failure every engine can meet (a download that fails, a file that cannot be
// read, out of memory, a cancelled load, a dead worker) is one of @inkling/scheduler's classes, with
// `device: 'gpu'`.

/**
 * WebGPU cannot be used here: the browser lacks it, or no adapter was found.
 * `reason` says which, in words a user can act on.
 *
 * @example
 * const { error } = pool.getSnapshot();
 * if (error instanceof WebGPUUnavailableError) showFallback(error.message);
 */
export class WebGPUUnavailableError extends EngineLoadError {
  override name = 'WebGPUUnavailableError';
  override readonly kind = 'no-device';
  override readonly device: ErrorDevice = 'gpu';
  readonly reason: string;

  constructor(reason: string, options?: { cause?: unknown }) {
    super(
      `WebGPU is not available here: ${reason} Use a browser with WebGPU (Chrome or Edge 113+, Safari 26+), or send this work to a server with @inkling/openai.`,
      options,
    );
    this.reason = reason;
  }
}

/**
 * What WebLLM's errors that only the worker or the model cache throws share:
 * one constructor that takes the message as worded where they are thrown (so
 * a page that only rebuilds them from the worker's messages carries no
 * wording), keeps the cause only when there is one and sets every other
 * detail as an own field.
 */
abstract class GPULoadError<Details extends object> extends EngineLoadError {
  override readonly device: ErrorDevice = 'gpu';

  constructor(message: string, { cause, ...fields }: Details & { cause?: unknown }) {
    super(message, cause === undefined ? undefined : { cause });
    Object.assign(this, fields);
  }
}

/**
 * The model needs the `shader-f16` WebGPU feature and this adapter lacks it.
 * `suggestion` is the f32 build of the same model to load instead. Built as
 * `new ShaderF16UnsupportedError(message, { model, suggestion, cause })`.
 *
 * @example
 * if (error instanceof ShaderF16UnsupportedError) pool = makePool(error.suggestion);
 */
export class ShaderF16UnsupportedError extends GPULoadError<{ model: string; suggestion: string }> {
  override name = 'ShaderF16UnsupportedError';
  override readonly kind = 'device-feature';
  declare readonly model: string;
  declare readonly suggestion: string;
}

/**
 * The `ShaderF16UnsupportedError` for `model`, naming its f32 build `suggestion`.
 *
 * @example
 * throw shaderF16Unsupported(record.model_id, f32Variant(record.model_id));
 */
export function shaderF16Unsupported(model: string, suggestion: string, cause?: unknown): ShaderF16UnsupportedError {
  return new ShaderF16UnsupportedError(
    `The model "${model}" needs 16-bit float shaders (the WebGPU feature "shader-f16"), which this GPU or browser does not offer. Load the f32 build instead: "${suggestion}".`,
    { model, suggestion, cause },
  );
}

/**
 * The model id is neither in WebLLM's prebuilt list nor in the `appConfig` given.
 * Built as `new ModelNotFoundError(message, { model, cause })`.
 *
 * @example
 * webllmEngines({ model: 'no-such-model' }); // the pool's load fails with ModelNotFoundError
 */
export class ModelNotFoundError extends GPULoadError<{ model: string }> {
  override name = 'ModelNotFoundError';
  override readonly kind = 'model-not-found';
  declare readonly model: string;
}

/**
 * The `ModelNotFoundError` for `model`: what to pick instead.
 *
 * @example
 * if (!record) throw modelNotFound(model);
 */
export function modelNotFound(model: string, cause?: unknown): ModelNotFoundError {
  return new ModelNotFoundError(
    `The model "${model}" is not in WebLLM's prebuilt list nor in the appConfig given. Pick an id from modelCatalogue (or WebLLM's prebuiltAppConfig), or add a model record { model, model_id, model_lib } to appConfig.model_list.`,
    { model, cause },
  );
}

/**
 * `@mlc-ai/web-llm` could not be imported.
 *
 * @example
 * // npm install @mlc-ai/web-llm — it is a peer dependency of @inkling/webllm
 */
export class WebLLMUnavailableError extends EngineLoadError {
  override name = 'WebLLMUnavailableError';
  override readonly kind = 'setup';
  override readonly device: ErrorDevice = 'gpu';

  constructor(options?: { cause?: unknown }) {
    super(
      'Could not import @mlc-ai/web-llm. Install it next to @inkling/webllm (a peer dependency, >=0.2.79 <0.3), or pass the module as the `webllm` option.',
      options,
    );
  }
}

/**
 * The WebGPU device of an engine was lost (a driver reset, memory pressure).
 * Fatal: the pool replaces the engine.
 *
 * @example
 * if (result.error instanceof GPUDeviceLostError) console.warn('GPU reset; retrying');
 */
export class GPUDeviceLostError extends EngineCrashedError {
  override name = 'GPUDeviceLostError';
  override readonly device: ErrorDevice = 'gpu';
}

/**
 * @deprecated Use `ModelUnreadableError` (a file that cannot be read) or `ModelFetchError` (a
 * download that failed) from `@inkling/scheduler`: `ModelLoadError` meant both. Kept as the
 * unreadable one, so `instanceof ModelLoadError` no longer catches a network failure.
 */
export const ModelLoadError = ModelUnreadableError;
/** @deprecated Use `ModelUnreadableError` from `@inkling/scheduler`. */
export type ModelLoadError = ModelUnreadableError;

/**
 * The `LoadCancelledError` of a WebLLM load stopped by `pool.unload()` (or its signal).
 *
 * @example
 * if (signal?.aborted) throw loadCancelled(model, signal.reason);
 */
export function loadCancelled(model: string, cause: unknown): LoadCancelledError {
  return new LoadCancelledError(`Loading "${model}" was cancelled (the pool was unloaded). Call pool.load() to start again.`, {
    device: 'gpu',
    model,
    cause,
  });
}
