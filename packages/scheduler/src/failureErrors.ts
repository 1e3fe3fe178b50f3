import { EngineCrashedError, EngineLoadError, type ErrorDevice, type ErrorKind } from './errors.js';

// One class per kind of failure every engine can meet, defined once beneath the adapters: a WebLLM
// (`device: 'gpu'`) and a wllama (`device: 'cpu'`) out of memory are the same class, told apart by
// `device`. Adapters construct them with their own words (the message says what to do on that
// engine); apps catch them from `@inkling/scheduler`. The classes hold no wording of their own, so a
// content script that only rebuilds them (a shared pool's client) stays small.

/** Where a failure happened and to which model, with what went wrong underneath. */
export interface FailureDetails {
  /** Where it failed: `'gpu'` (WebGPU), `'cpu'` (WebAssembly), `'server'` or `'browser'` (a built-in model). */
  readonly device: ErrorDevice;
  /** The model's id or URL as the engine knows it (a built-in model: what it is, "the en→fr translator"). */
  readonly model: string;
  readonly cause?: unknown;
}

/**
 * What the four load failures share: one constructor that keeps the cause
 * (only when there is one) and sets every other detail as an own field
 * (`device`, `model`, a subclass's `url`, `status`, `vramRequiredMB`; readonly
 * to everyone else). Not exported: apps catch the classes below, never this one.
 */
abstract class LoadFailure<Details extends FailureDetails = FailureDetails> extends EngineLoadError {
  declare readonly device: ErrorDevice;
  declare readonly model: string;

  constructor(message: string, { cause, ...fields }: Details) {
    super(message, cause === undefined ? undefined : { cause });
    Object.assign(this, fields);
  }
}

/**
 * A model's file could not be fetched: nothing answered (offline, a wrong
 * host, CORS; `status` `0`), the server answered an error status, or the
 * connection broke mid-download. Kind `'model-not-found'` for HTTP 404 and
 * 410, else `'network'` (retryable).
 *
 * @example
 * if (error instanceof ModelFetchError) console.warn(error.device, error.url, error.status);
 */
export class ModelFetchError extends LoadFailure<FailureDetails & { url: string; status?: number; kind?: ErrorKind; retryable?: boolean }> {
  override name = 'ModelFetchError';
  declare readonly kind: ErrorKind;
  declare readonly retryable: boolean;
  /** The file that failed. */
  declare readonly url: string;
  /** The HTTP status it answered; `0` when nothing answered (or the engine did not say). */
  declare readonly status: number;

  constructor(message: string, details: FailureDetails & { url: string; status?: number }) {
    const status = details.status ?? 0;
    const gone = status === 404 || status === 410;
    super(message, { ...details, status, kind: gone ? 'model-not-found' : 'network', retryable: !gone });
  }
}

/**
 * The model's file arrived (or was stored) but the engine cannot read it:
 * not a model, an architecture the engine does not know, a corrupt or cut
 * download. Kind `'file-unreadable'`: loading the same file again will not help.
 *
 * @example
 * if (error instanceof ModelUnreadableError) offerToDelete(error.model);
 */
export class ModelUnreadableError extends LoadFailure {
  override name = 'ModelUnreadableError';
  override readonly kind = 'file-unreadable';
}

/**
 * The model did not fit in memory: the GPU's (`device: 'gpu'`), or what
 * WebAssembly may have (`'cpu'`: 4 GB per worker at most, often less on phones).
 *
 * @example
 * if (error instanceof OutOfMemoryError && error.device === 'gpu') suggestSmallerModel(error.vramRequiredMB);
 */
export class OutOfMemoryError extends LoadFailure<FailureDetails & { vramRequiredMB?: number }> {
  override name = 'OutOfMemoryError';
  override readonly kind = 'out-of-memory';
  /** What the model needs of GPU memory, when its record says. */
  declare readonly vramRequiredMB: number | undefined;
}

/**
 * The load was stopped (`pool.unload()`, or the load's `signal`) before it
 * finished; nothing of it is left behind. Kind `'cancelled'`, retryable.
 *
 * @example
 * await pool.unload(); // a createEngine still loading rejects with LoadCancelledError
 */
export class LoadCancelledError extends LoadFailure {
  override name = 'LoadCancelledError';
  override readonly kind = 'cancelled';
  override readonly retryable = true;
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
  declare readonly device: ErrorDevice;

  constructor(message: string, { cause, ...fields }: { device: ErrorDevice; cause?: unknown }) {
    super(message, cause === undefined ? undefined : { cause });
    Object.assign(this, fields);
  }
}

/**
 * The failure classes above by the `name` their instances carry: what a
 * wire's `decodeError` needs to rebuild any of them (a worker's, a shared
 * pool's), so a new kind of failure reaches every wire at once.
 *
 * @example
 * decodeError(wire, { ...FAILURE_ERRORS, MyEngineError });
 */
export const FAILURE_ERRORS = { ModelFetchError, ModelUnreadableError, OutOfMemoryError, LoadCancelledError, WorkerCrashedError };
