import { EngineCrashedError, EngineLoadError, type ErrorDevice, type ErrorKind } from '@inkling/scheduler';

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
 * The model needs the `shader-f16` WebGPU feature and this adapter lacks it.
 * `suggestion` is the f32 build of the same model to load instead.
 *
 * @example
 * if (error instanceof ShaderF16UnsupportedError) pool = makePool(error.suggestion);
 */
export class ShaderF16UnsupportedError extends EngineLoadError {
  override name = 'ShaderF16UnsupportedError';
  override readonly kind = 'device-feature';
  override readonly device: ErrorDevice = 'gpu';
  readonly model: string;
  readonly suggestion: string;

  constructor(model: string, suggestion: string, options?: { cause?: unknown }) {
    super(
      `The model "${model}" needs 16-bit float shaders (the WebGPU feature "shader-f16"), which this GPU or browser does not offer. Load the f32 build instead: "${suggestion}".`,
      options,
    );
    this.model = model;
    this.suggestion = suggestion;
  }
}

/**
 * The model id is neither in WebLLM's prebuilt list nor in the `appConfig` given.
 *
 * @example
 * webllmEngines({ model: 'no-such-model' }); // the pool's load fails with ModelNotFoundError
 */
export class ModelNotFoundError extends EngineLoadError {
  override name = 'ModelNotFoundError';
  override readonly kind = 'model-not-found';
  override readonly device: ErrorDevice = 'gpu';
  readonly model: string;

  constructor(model: string, options?: { cause?: unknown }) {
    super(
      `The model "${model}" is not in WebLLM's prebuilt list nor in the appConfig given. Pick an id from modelCatalogue (or WebLLM's prebuiltAppConfig), or add a model record { model, model_id, model_lib } to appConfig.model_list.`,
      options,
    );
    this.model = model;
  }
}

/**
 * A model's files could not be fetched or loaded. `url` is the file that
 * failed, when WebLLM named one.
 *
 * @example
 * if (error instanceof ModelLoadError && error.url) console.warn('blocked:', error.url);
 */
export class ModelLoadError extends EngineLoadError {
  override name = 'ModelLoadError';
  /** `'network'` when a file could not be fetched (`url`), else `'file-unreadable'` (fetched, or cached, but WebLLM could not load it). */
  override readonly kind: ErrorKind;
  override readonly retryable: boolean;
  override readonly device: ErrorDevice = 'gpu';
  readonly model: string;
  readonly url: string | undefined;

  constructor(model: string, detail: string, url: string | undefined, options?: { cause?: unknown }) {
    super(
      url
        ? `The model "${model}" could not be loaded: fetching ${url} failed (${detail}). Check that the URL is right and reachable from this page (network, CORS, disk quota), then load again.`
        : `The model "${model}" could not be loaded (${detail}). Load again; if it keeps failing, clear its cache with deleteModel("${model}").`,
      options,
    );
    this.model = model;
    this.url = url;
    this.kind = url ? 'network' : 'file-unreadable';
    this.retryable = url !== undefined;
  }
}

/**
 * The GPU ran out of memory while loading the model (WebLLM reports it as a
 * lost device during load).
 *
 * @example
 * if (error instanceof OutOfMemoryError) suggestSmallerModel(error.vramRequiredMB);
 */
export class OutOfMemoryError extends EngineLoadError {
  override name = 'OutOfMemoryError';
  override readonly kind = 'out-of-memory';
  override readonly device: ErrorDevice = 'gpu';
  readonly model: string;
  /** What the model needs, when its record says. */
  readonly vramRequiredMB: number | undefined;

  constructor(model: string, vramRequiredMB: number | undefined, options?: { cause?: unknown }) {
    const need = vramRequiredMB ? ` (it needs about ${Math.round(vramRequiredMB)} MB of GPU memory)` : '';
    super(
      `The GPU ran out of memory loading "${model}"${need}. Close other GPU-heavy tabs, use a smaller pool (size: 1), or pick a smaller model or a shorter context window.`,
      options,
    );
    this.model = model;
    this.vramRequiredMB = vramRequiredMB;
  }
}

/**
 * The load was stopped by `pool.unload()` before it finished. Nothing of it is
 * left behind: its worker is terminated and its weights freed.
 *
 * @example
 * await pool.unload(); // a createEngine still loading rejects with LoadCancelledError
 */
export class LoadCancelledError extends EngineLoadError {
  override name = 'LoadCancelledError';
  override readonly kind = 'cancelled';
  override readonly retryable = true;
  override readonly device: ErrorDevice = 'gpu';

  constructor(model: string, options?: { cause?: unknown }) {
    super(`Loading "${model}" was cancelled (the pool was unloaded). Call pool.load() to start again.`, options);
  }
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
 * An engine's Web Worker died (an uncaught error, or it stopped answering).
 * Fatal: the pool replaces the engine.
 *
 * @example
 * if (result.error instanceof WorkerCrashedError) console.warn('engine restarted');
 */
export class WorkerCrashedError extends EngineCrashedError {
  override name = 'WorkerCrashedError';
  override readonly device: ErrorDevice = 'gpu';
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
