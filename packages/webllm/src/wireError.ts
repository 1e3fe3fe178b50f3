import { InklingError } from '@inkling/scheduler';
import { asError } from './asError.js';
import {
  GPUDeviceLostError,
  ModelLoadError,
  ModelNotFoundError,
  OutOfMemoryError,
  ShaderF16UnsupportedError,
  WebGPUUnavailableError,
} from './errors.js';
import type { WireError } from './protocol.js';

/** How many causes deep an error crosses: enough for WebLLM's, and one that is its own cause ends. */
const MAX_CAUSES = 3;

/**
 * An error as it crosses to the page: its name, words, fields and cause.
 * WebLLM sometimes throws strings (`"DeviceLostError: ..."`); those are split
 * into name and message. Only Inkling's errors send their fields (plain
 * values), so nothing that cannot be cloned is posted. `depth` counts the
 * causes above this one.
 *
 * @example
 * post({ type: 'error', id, error: toWire(classifyRunError(reason)) });
 */
export function toWire(reason: unknown, depth = 0): WireError {
  const { name, message, cause } = asError(reason);
  const wire: WireError = { name, message };
  if (reason instanceof InklingError) wire.fields = Object.fromEntries(Object.entries(reason).filter(([key]) => key !== 'name'));
  if (cause !== undefined && depth < MAX_CAUSES) wire.cause = toWire(cause, depth + 1);
  return wire;
}

/** The typed errors a worker sends, by name. */
const TYPED_ERRORS: Record<string, new (...args: never[]) => InklingError> = {
  GPUDeviceLostError,
  ModelLoadError,
  ModelNotFoundError,
  OutOfMemoryError,
  ShaderF16UnsupportedError,
  WebGPUUnavailableError,
};

/**
 * The page's `Error` for a wire error. One of Inkling's typed errors comes
 * back as an instance of its class (so `instanceof` holds) carrying the
 * worker's message and fields as they are: the worker worded it, the page
 * does not word it again. Any other error is an `Error` named as in the worker.
 *
 * @example
 * reject(fromWire(message.error));
 */
export function fromWire(wire: WireError): Error {
  const options = wire.cause ? { cause: fromWire(wire.cause) } : undefined;
  const typed = Object.hasOwn(TYPED_ERRORS, wire.name) ? TYPED_ERRORS[wire.name] : undefined;
  // Built by the base class's constructor with the typed class's prototype: no second wording.
  const error: Error = typed ? Reflect.construct(InklingError, [wire.message, options], typed) : new Error(wire.message, options);
  return Object.assign(error, wire.fields, { name: wire.name });
}
