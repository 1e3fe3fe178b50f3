import {
  EngineCrashedError,
  EngineError,
  EngineLoadError,
  InklingError,
  InvalidJobError,
  InvalidOptionError,
  type JobResult,
  type PoolStatus,
} from '@inkling/scheduler';
import { HostLostError } from './errors.js';

/** A class an error can be rebuilt as. Its constructor is not called. */
export type ErrorClass = abstract new (...args: never[]) => Error;

/**
 * Error classes by the `name` their instances carry. Pass an app's own
 * (`{ RateLimitError, ServerError }` from `@inkling/openai`) to have them
 * rebuilt with their class on the client; key each by its instances' `name`.
 */
export type ErrorClasses = Readonly<Record<string, ErrorClass>>;

/** An error as it crosses: its name, message, own plain fields and cause. */
export interface WireError {
  readonly name: string;
  readonly message: string;
  readonly fields: Readonly<Record<string, unknown>>;
  readonly cause?: WireError | undefined;
}

/**
 * The classes every client rebuilds without being told: the scheduler's,
 * `HostLostError` and the standard `Error`, `TypeError`, `RangeError`.
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
  HostLostError,
  Error,
  TypeError,
  RangeError,
};

const SKIPPED = new Set(['name', 'message', 'stack', 'cause']);

/** True for values that cross a port and JSON alike: primitives and plain arrays/objects of them. */
function isPlain(value: unknown, depth = 0): boolean {
  if (value === null || ['string', 'number', 'boolean'].includes(typeof value)) return true;
  if (depth > 3 || typeof value !== 'object') return false;
  if (Array.isArray(value)) return value.every((item) => isPlain(item, depth + 1));
  if (Object.getPrototypeOf(value) !== Object.prototype) return false;
  return Object.values(value).every((item) => isPlain(item, depth + 1));
}

/**
 * Flattens anything thrown into a `WireError`: `name`, `message`, the own
 * fields that are plain data (`status`, `retryable`, `requestId`, `fatal`...)
 * and the cause, two levels deep.
 *
 * @example
 * port.postMessage({ error: encodeError(new InvalidJobError('bad spec')) });
 */
export function encodeError(error: unknown, depth = 0): WireError {
  if (!(error instanceof Error)) return { name: 'Error', message: typeof error === 'string' ? error : String(error), fields: {} };
  const fields: Record<string, unknown> = {};
  for (const key of Object.keys(error)) {
    const value = (error as unknown as Record<string, unknown>)[key];
    if (!SKIPPED.has(key) && isPlain(value)) fields[key] = value;
  }
  const { cause } = error as { cause?: unknown };
  const wire: WireError = { name: error.name, message: error.message, fields };
  return cause === undefined || depth >= 2 ? wire : { ...wire, cause: encodeError(cause, depth + 1) };
}

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
  const Class = (Object.hasOwn(classes, wire.name) ? classes[wire.name] : undefined) ??
    (Object.hasOwn(BUILT_IN_ERRORS, wire.name) ? BUILT_IN_ERRORS[wire.name] : undefined) ??
    InklingError;
  // The constructor is not called: classes take different arguments, and the
  // fields below are the instance's state as the host had it.
  const error = Object.create(Class.prototype) as Error;
  const own = (key: string, value: unknown) =>
    Object.defineProperty(error, key, { value, writable: true, configurable: true, enumerable: key !== 'message' && key !== 'cause' });
  own('name', wire.name);
  own('message', wire.message);
  for (const [key, value] of Object.entries(wire.fields)) own(key, value);
  if (wire.cause) own('cause', decodeError(wire.cause, classes));
  own('stack', `${wire.name}: ${wire.message}\n    (rebuilt from the shared pool's host)`);
  return error;
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
