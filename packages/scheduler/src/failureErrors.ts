import { EngineCrashedError, EngineLoadError, type ErrorDevice, type ErrorKind } from './errors.js';

// One class per kind of failure every engine can meet, defined once beneath the adapters: a WebLLM
// (`device: 'gpu'`) and a wllama (`device: 'cpu'`) out-of-memory are the same class, told apart by
// `device`. Adapters construct them; apps catch them from `@inkling/scheduler`.

/** What every failure below is told: where it failed, which model, and what went wrong underneath. */
export interface FailureDetails {
  /** Where it failed: `'gpu'` (WebGPU), `'cpu'` (WebAssembly), `'server'` or `'browser'` (a built-in model). */
  readonly device: ErrorDevice;
  /** The model's id, name or URL, as the engine knows it (a built-in model: what it is, "the built-in translation model"). */
  readonly model: string;
  /** What to do, when the engine knows better than the default sentence. */
  readonly advice?: string;
  readonly cause?: unknown;
}

function causeOf(details: { cause?: unknown }): { cause?: unknown } | undefined {
  return details.cause === undefined ? undefined : { cause: details.cause };
}

/**
 * A model's file could not be fetched: nothing answered (offline, a wrong
 * host, CORS; `status` is `0`), the server answered an error status, or the
 * connection broke mid-download (`cut`). Kind `'model-not-found'` for HTTP
 * 404 and 410, else `'network'` (retryable).
 *
 * @example
 * if (error instanceof ModelFetchError) console.warn(error.device, error.url, error.status);
 */
export class ModelFetchError extends EngineLoadError {
  override name = 'ModelFetchError';
  override readonly kind: ErrorKind;
  override readonly device: ErrorDevice;
  override readonly retryable: boolean;
  readonly model: string;
  /** The file that failed. */
  readonly url: string;
  /** The HTTP status it answered; `0` when nothing answered (or the engine did not say). */
  readonly status: number;

  constructor(details: FailureDetails & { url: string; status?: number; cut?: boolean; detail?: string }) {
    const { url, status = 0 } = details;
    const why =
      details.detail ??
      (status ? `it answered HTTP ${status}` : 'nothing answered (offline, a wrong host, or the server does not allow this origin: CORS)');
    super(
      details.cut
        ? `The download of the model file ${url} was cut off (the connection broke). What arrived is kept; load again to fetch the rest.`
        : `The model file ${url} could not be fetched: ${why}. ${details.advice ?? 'Check that the URL is right and reachable from this page (network, CORS), then load again.'}`,
      causeOf(details),
    );
    const gone = status === 404 || status === 410;
    this.kind = gone ? 'model-not-found' : 'network';
    this.retryable = !gone;
    this.device = details.device;
    this.model = details.model;
    this.url = url;
    this.status = status;
  }
}

/**
 * The model's file arrived (or was stored) but the engine cannot read it:
 * not a model, an architecture the engine does not know, a corrupt or cut
 * download. Kind `'file-unreadable'`; loading the same file again will not help.
 *
 * @example
 * if (error instanceof ModelUnreadableError) offerToDelete(error.model);
 */
export class ModelUnreadableError extends EngineLoadError {
  override name = 'ModelUnreadableError';
  override readonly kind = 'file-unreadable';
  override readonly device: ErrorDevice;
  readonly model: string;

  /** `detail`: what the engine said. */
  constructor(details: FailureDetails & { detail: string }) {
    super(
      `The model "${details.model}" could not be loaded (${details.detail}). ${details.advice ?? 'Delete the stored copy and download it again, or pick another model.'}`,
      causeOf(details),
    );
    this.device = details.device;
    this.model = details.model;
  }
}

/**
 * The model did not fit in memory: the GPU's (`device: 'gpu'`), or what
 * WebAssembly may have (`'cpu'`: 4 GB per worker at most, often less on phones).
 *
 * @example
 * if (error instanceof OutOfMemoryError && error.device === 'gpu') suggestSmallerModel(error.vramRequiredMB);
 */
export class OutOfMemoryError extends EngineLoadError {
  override name = 'OutOfMemoryError';
  override readonly kind = 'out-of-memory';
  override readonly device: ErrorDevice;
  readonly model: string;
  /** What the model needs of GPU memory, when its record says. */
  readonly vramRequiredMB: number | undefined;

  constructor(details: FailureDetails & { vramRequiredMB?: number }) {
    const { device, model, vramRequiredMB } = details;
    const need = vramRequiredMB ? ` (it needs about ${Math.round(vramRequiredMB)} MB of GPU memory)` : '';
    super(
      device === 'gpu'
        ? `The GPU ran out of memory loading "${model}"${need}. ${details.advice ?? 'Close other GPU-heavy tabs, use a smaller pool (size: 1), or pick a smaller model or a shorter context window.'}`
        : `Loading "${model}" ran out of memory. ${details.advice ?? 'Pick a smaller model, a shorter context, or a pool of one engine (size: 1).'}`,
      causeOf(details),
    );
    this.device = device;
    this.model = model;
    this.vramRequiredMB = vramRequiredMB;
  }
}

/**
 * The load was stopped (`pool.unload()`, or the load's `signal`) before it
 * finished; nothing of it is left behind. Kind `'cancelled'`, retryable.
 *
 * @example
 * await pool.unload(); // a createEngine still loading rejects with LoadCancelledError
 */
export class LoadCancelledError extends EngineLoadError {
  override name = 'LoadCancelledError';
  override readonly kind = 'cancelled';
  override readonly retryable = true;
  override readonly device: ErrorDevice;
  readonly model: string;

  constructor(details: FailureDetails) {
    super(
      `Loading ${details.model} was cancelled. ${details.advice ?? 'The pool was unloaded; call pool.load() to start again.'}`,
      causeOf(details),
    );
    this.device = details.device;
    this.model = details.model;
  }
}

/**
 * An engine's worker died (an uncaught error, a WebAssembly abort, it
 * stopped answering). Fatal: the pool replaces the engine.
 *
 * @example
 * if (result.error instanceof WorkerCrashedError) console.warn(`the ${result.error.device} engine restarted`);
 */
export class WorkerCrashedError extends EngineCrashedError {
  override name = 'WorkerCrashedError';
  override readonly device: ErrorDevice;

  constructor(message: string, details: { device: ErrorDevice; cause?: unknown }) {
    super(message, causeOf(details));
    this.device = details.device;
  }
}
