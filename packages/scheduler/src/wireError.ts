/**
 * An error as it crosses a worker's or a port's messages: its name, words,
 * own plain fields (`kind`, `retryable`, `status`, `model`, `fatal`...; left
 * out when there are none) and its cause.
 */
export interface WireError {
  readonly name: string;
  readonly message: string;
  readonly fields?: Readonly<Record<string, unknown>>;
  readonly cause?: WireError;
}

/** A class an error can be rebuilt as. Its constructor is not called. */
export type ErrorClass = abstract new (...args: never[]) => Error;

/** Error classes by the `name` their instances carry. */
export type ErrorClasses = Readonly<Record<string, ErrorClass>>;

/** How many causes deep an error crosses: enough for every engine's, and one that is its own cause ends. */
const MAX_CAUSES = 3;

const SKIPPED = new Set(['name', 'message', 'stack', 'cause']);

/**
 * Anything thrown as an `Error`. Engines sometimes throw strings (WebLLM's
 * `err.toString()`, so `"DeviceLostError: The WebGPU device was lost..."`):
 * those are split into name and message.
 *
 * @example
 * asError('DeviceLostError: lost').name; // 'DeviceLostError'
 */
export function asError(reason: unknown): Error {
  if (reason instanceof Error) return reason;
  const text = typeof reason === 'string' ? reason : String(reason);
  const match = /^([A-Za-z][A-Za-z0-9]*Error): ([\s\S]*)$/.exec(text);
  const error = new Error(match ? match[2] : text);
  if (match?.[1]) error.name = match[1];
  return error;
}

/** True for values that cross a port and JSON alike: primitives and plain arrays/objects of them. */
function isPlain(value: unknown, depth = 0): boolean {
  if (value === null || ['string', 'number', 'boolean'].includes(typeof value)) return true;
  if (depth > 3 || typeof value !== 'object') return false;
  if (Array.isArray(value)) return value.every((item) => isPlain(item, depth + 1));
  if (Object.getPrototypeOf(value) !== Object.prototype) return false;
  return Object.values(value).every((item) => isPlain(item, depth + 1));
}

/**
 * Flattens anything thrown into a `WireError` that structured clone and JSON
 * both carry: `name`, `message`, the own fields that are plain data, and the
 * cause, three deep.
 *
 * @example
 * port.postMessage({ t: 'reply', rid, error: encodeError(new InvalidJobError('bad spec')) });
 */
export function encodeError(reason: unknown, depth = 0): WireError {
  const error = asError(reason);
  const fields: Record<string, unknown> = {};
  for (const key of Object.keys(error)) {
    const value = (error as unknown as Record<string, unknown>)[key];
    if (!SKIPPED.has(key) && isPlain(value)) fields[key] = value;
  }
  const wire: { name: string; message: string; fields?: Record<string, unknown>; cause?: WireError } = {
    name: error.name,
    message: error.message,
  };
  if (Object.keys(fields).length > 0) wire.fields = fields;
  const { cause } = error as { cause?: unknown };
  if (cause !== undefined && depth < MAX_CAUSES) wire.cause = encodeError(cause, depth + 1);
  return wire;
}

/**
 * Rebuilds an error from a `WireError` as an instance of its class, looked
 * up by name in `classes`; an unknown name becomes a `Fallback` carrying that
 * name. The class's constructor is not called (classes take different
 * arguments, and the fields are the instance's state as the sender had it):
 * the message, fields and cause come back as they were, so `instanceof`,
 * `InklingError.isInstance` and `kind` all hold.
 *
 * @example
 * const error = decodeError(message.error, { ModelLoadError, OutOfMemoryError });
 */
export function decodeError(wire: WireError, classes: ErrorClasses = {}, Fallback: ErrorClass = Error): Error {
  const Class = (Object.hasOwn(classes, wire.name) ? classes[wire.name] : undefined) ?? Fallback;
  const cause = wire.cause ? decodeError(wire.cause, classes, Fallback) : undefined;
  // A real Error (its stack, `Error.isError`) with the class's prototype.
  const error = Reflect.construct(Error, cause ? [wire.message, { cause }] : [wire.message], Class) as Error;
  Object.defineProperty(error, 'name', { value: wire.name, writable: true, configurable: true, enumerable: true });
  return Object.assign(error, wire.fields);
}
