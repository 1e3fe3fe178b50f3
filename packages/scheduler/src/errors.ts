import { show } from './rules.js';

/**
 * What failed, in a word every engine uses alike, so advice and retries are
 * chosen by kind, never by a class's name:
 *
 * - `no-device`: what the engine runs on is missing (no WebGPU, no 64-bit WebAssembly);
 * - `device-feature`: the device lacks a feature this model needs (16-bit float shaders);
 * - `out-of-memory`: the model did not fit (GPU memory, WebAssembly memory);
 * - `model-not-found`: no model has this id (on the engine, or on the server);
 * - `file-unreadable`: the model's file arrived but the engine cannot read it (not a model, corrupt);
 * - `network`: a file or server could not be reached;
 * - `storage-full`: there is no room to keep the model;
 * - `setup`: the app lacks something (a library, an asset, a key);
 * - `cancelled`: stopped on purpose (an unload);
 * - `needs-gesture`: the browser starts it only from a person's click or key press (a built-in model's download);
 * - `crashed`: the engine died and the pool replaces it;
 * - `refused`: a request was turned down (a bad request, a rate limit);
 * - `invalid`: an option or job spec is wrong;
 * - `unknown`: anything else.
 */
export type ErrorKind =
  | 'no-device'
  | 'device-feature'
  | 'out-of-memory'
  | 'model-not-found'
  | 'file-unreadable'
  | 'network'
  | 'storage-full'
  | 'setup'
  | 'cancelled'
  | 'needs-gesture'
  | 'crashed'
  | 'refused'
  | 'invalid'
  | 'unknown';

/** Where it failed: the GPU (WebGPU), the CPU (WebAssembly), a server, or the browser itself. */
export type ErrorDevice = 'gpu' | 'cpu' | 'server' | 'browser';

/** When it failed: loading the engine, or running a job on it. */
export type ErrorPhase = 'load' | 'run';

/** Marks Inkling's errors across bundles and realms, where `instanceof` fails. */
const MARKER = Symbol.for('inkling.error');

/**
 * The base of every error Inkling produces. `name` tells the class apart,
 * `kind` what failed (advice and retries go by it), `device` and `phase`
 * where and when, `retryable` whether trying the same again may work;
 * `cause` keeps what went wrong underneath, and the message says what to do.
 * Subclasses set the four as class fields. Defaults: `kind` `'unknown'`,
 * `device` and `phase` `undefined`, `retryable` `false`.
 *
 * @example
 * const result = await pool.submit(spec);
 * if (InklingError.isInstance(result.error) && result.error.retryable) retryLater();
 */
export class InklingError extends Error {
  override name = 'InklingError';
  readonly kind: ErrorKind = 'unknown';
  // Not own fields unless set (left out, they read `undefined` all the same): fewer bytes in every bundle.
  declare readonly device: ErrorDevice | undefined;
  declare readonly phase: ErrorPhase | undefined;
  readonly retryable: boolean = false;

  /**
   * True for any Inkling error, from this bundle or another (two copies of
   * the package, an iframe, an error rebuilt from a worker's message).
   *
   * @example
   * if (InklingError.isInstance(error)) showAdvice(error.kind);
   */
  static isInstance(value: unknown): value is InklingError {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[MARKER] === true;
  }
}
// On the prototype: not an own field, so it never crosses a wire and every instance has it.
Object.defineProperty(InklingError.prototype, MARKER, { value: true });

/**
 * An option given to a constructor is wrong. Thrown synchronously, since it is
 * a programming mistake rather than something that happens at run time.
 *
 * @example
 * new EnginePool({ createEngine, size: 9 }); // throws InvalidOptionError
 */
export class InvalidOptionError extends InklingError {
  override name = 'InvalidOptionError';
  override readonly kind = 'invalid';
}

/**
 * A job spec is wrong. The job resolves with this error at once; nothing else
 * in the pool is touched (no supersession, no queueing).
 *
 * @example
 * const { error } = await pool.submit({ params: undefined as never });
 * error instanceof InvalidJobError; // true
 */
export class InvalidJobError extends InklingError {
  override name = 'InvalidJobError';
  override readonly kind = 'invalid';
}

/**
 * An engine call failed for this job only (a bad request, a tokenizer error).
 * The engine stays in the pool. `cause` holds the engine's error.
 *
 * @example
 * if (result.error instanceof EngineError) console.warn(result.error.cause);
 */
export class EngineError extends InklingError {
  override name = 'EngineError';
  override readonly phase: ErrorPhase = 'run';
}

/**
 * An engine died (its worker crashed, the GPU device was lost). The job on it
 * ends with this error; the pool unloads the engine and builds a new one while
 * queued jobs wait.
 *
 * Engine adapters throw it (or any error with `fatal: true`) to tell the pool
 * the engine is beyond use.
 *
 * @example
 * throw new EngineCrashedError('The WebGPU device was lost.', { cause: err });
 */
export class EngineCrashedError extends InklingError {
  override name = 'EngineCrashedError';
  override readonly kind: ErrorKind = 'crashed';
  override readonly phase: ErrorPhase = 'run';
  // The pool builds a new engine: the same job may work on it.
  override readonly retryable: boolean = true;
  readonly fatal = true;
}

/**
 * An engine was asked to stop a job and then made no progress (no chunk, no
 * answer) for `stallTimeoutMs`: it is taken for dead and replaced like a
 * crashed one. Jobs still running on its other lanes end with this error. It
 * is an `EngineCrashedError`, told apart by its `name`.
 *
 * @example
 * if (result.error?.name === 'EngineStalledError') retryLater();
 */
export class EngineStalledError extends EngineCrashedError {
  override name = 'EngineStalledError';
}

/**
 * `createEngine` failed, resolved something that is not an engine, or the
 * engine could not be set up (reading its `concurrency` or applying the pool's
 * settings threw). On the first engine the pool's phase becomes `'error'` with
 * this as its error; queued jobs keep waiting for `load()`.
 *
 * @example
 * pool.getSnapshot().error instanceof EngineLoadError;
 */
export class EngineLoadError extends InklingError {
  override name = 'EngineLoadError';
  override readonly phase: ErrorPhase = 'load';
}

/** True for errors that mean the engine that threw them is beyond use. */
export function isFatalEngineError(error: unknown): boolean {
  // Every EngineCrashedError has `fatal: true`.
  return (error as { fatal?: unknown } | null | undefined)?.fatal === true;
}

/** A short human description of anything thrown. */
export function describeError(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  return typeof error === 'string' ? error : show(error);
}

/** Wraps a foreign error in `Wrapper` unless it already is an `InklingError`. */
export function asInklingError(
  error: unknown,
  Wrapper: new (message: string, options?: { cause?: unknown }) => InklingError,
  context: string,
): InklingError {
  if (InklingError.isInstance(error)) return error;
  return new Wrapper(`${context}: ${describeError(error)}`, { cause: error });
}
