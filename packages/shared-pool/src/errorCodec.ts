import { type ErrorClasses, FAILURE_ERRORS, type WireError, decodeError as decodeWireError, encodeError } from '@inkling/scheduler/engine';
import {
  EngineCrashedError,
  EngineError,
  EngineLoadError,
  InklingError,
  InvalidJobError,
  InvalidOptionError,
  InvalidSchemaError,
  type JobResult,
  type PoolStatus,
  UnsupportedConstraintError,
} from '@inkling/scheduler';
import { ClientLimitError, HostLostError } from './errors.js';

/**
 * The classes every client rebuilds without being told: the scheduler's errors
 * that end a job or a load (a WebLLM and a wllama `OutOfMemoryError` come back
 * as that one class, their `device` kept), `HostLostError`, `ClientLimitError`
 * and the standard `Error`, `TypeError`, `RangeError`. Storage errors are
 * left out to keep a content script small: they come back as `InklingError`s
 * with their name, kind and fields (pass them in `errorClasses` for `instanceof`).
 *
 * @example
 * Object.keys(BUILT_IN_ERRORS); // ['InklingError', 'InvalidOptionError', ...]
 */
export const BUILT_IN_ERRORS: ErrorClasses = {
  InklingError,
  InvalidOptionError,
  InvalidJobError,
  EngineError,
  EngineCrashedError,
  // Internal to the scheduler: rebuilt as its base class, its name kept.
  EngineStalledError: EngineCrashedError,
  EngineLoadError,
  // The failures every engine shares: the same class whichever engine failed, told apart by `device`.
  ...FAILURE_ERRORS,
  // A job's schema refused, by the pool or by its engine (the AI SDK provider tells them apart by class).
  InvalidSchemaError,
  UnsupportedConstraintError,
  HostLostError,
  ClientLimitError,
  Error,
  TypeError,
  RangeError,
};

/**
 * Rebuilds an error from a `WireError` as an instance of its class, looked up
 * by name in `classes` then the built-in ones; an unknown name becomes an
 * `InklingError` carrying that name. Fields and cause come back as they were.
 *
 * @example
 * const error = decodeError(wire, { RateLimitError });
 * error instanceof RateLimitError; // when wire.name is 'RateLimitError'
 */
export function decodeError(wire: WireError, classes: ErrorClasses = {}): Error {
  return decodeWireError(wire, { ...BUILT_IN_ERRORS, ...classes }, InklingError);
}

/** A job result as it crosses: the error flattened. */
export type WireResult = Omit<JobResult, 'error'> & { readonly error?: WireError };

/** The pool's snapshot as it crosses: its error flattened. */
export type WireStatus = Omit<PoolStatus, 'error'> & { readonly error: WireError | null };

/** @example port.postMessage({ result: encodeResult(result) }); */
export function encodeResult(result: JobResult): WireResult {
  const { error, ...rest } = result;
  return error ? { ...rest, error: encodeError(error) } : rest;
}

/** @example const result = decodeResult(message.result, classes); */
export function decodeResult(wire: WireResult, classes?: ErrorClasses): JobResult {
  const { error, ...rest } = wire;
  return error ? { ...rest, error: decodeError(error, classes) as InklingError } : rest;
}

/** @example port.postMessage({ status: encodeStatus(pool.getSnapshot()) }); */
export function encodeStatus(status: PoolStatus): WireStatus {
  return { ...status, error: status.error ? encodeError(status.error) : null };
}

/** @example const status = decodeStatus(message.status, classes); */
export function decodeStatus(wire: WireStatus, classes?: ErrorClasses): PoolStatus {
  return { ...wire, error: wire.error ? (decodeError(wire.error, classes) as InklingError) : null };
}
