import { type ErrorClasses, FAILURE_ERRORS, type WireError, decodeError } from '@inkling/scheduler/engine';
import { InvalidSchemaError, UnsupportedConstraintError } from '@inkling/scheduler';
import { GPUDeviceLostError, ModelNotFoundError, ShaderF16UnsupportedError, WebGPUUnavailableError } from './errors.js';

/** The typed errors a worker sends, by name: WebLLM's own and the failures every engine shares. */
const TYPED_ERRORS: ErrorClasses = {
  ...FAILURE_ERRORS,
  GPUDeviceLostError,
  InvalidSchemaError,
  ModelNotFoundError,
  ShaderF16UnsupportedError,
  UnsupportedConstraintError,
  WebGPUUnavailableError,
};

/**
 * The page's `Error` for a worker's `encodeError`. One of Inkling's typed
 * errors comes back as an instance of its class (so `instanceof` holds)
 * carrying the worker's message and fields as they are: the worker worded
 * it, the page does not word it again. Any other error is an `Error` named
 * as in the worker.
 *
 * @example
 * reject(fromWire(message.error));
 */
export function fromWire(wire: WireError): Error {
  return decodeError(wire, TYPED_ERRORS);
}
