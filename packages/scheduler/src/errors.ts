import { show } from './rules.js';

/**
 * The base of every error Inkling produces. `name` tells the kind apart,
 * `cause` keeps what went wrong underneath, and the message says what to do.
 *
 * @example
 * const result = await pool.submit(spec);
 * if (result.error instanceof InklingError) console.warn(result.error.message);
 */
export class InklingError extends Error {
  override name = 'InklingError';
}

/**
 * An option given to a constructor is wrong. Thrown synchronously, since it is
 * a programming mistake rather than something that happens at run time.
 *
 * @example
 * new EnginePool({ createEngine, size: 9 }); // throws InvalidOptionError
 */
export class InvalidOptionError extends InklingError {
  override name = 'InvalidOptionError';
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
  if (error instanceof InklingError) return error;
  return new Wrapper(`${context}: ${describeError(error)}`, { cause: error });
}
