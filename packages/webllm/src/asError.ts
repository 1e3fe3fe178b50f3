/**
 * Any rejection as an `Error` whose `name` is WebLLM's class name. WebLLM
 * sometimes throws strings (`err.toString()`, so `"DeviceLostError: The
 * WebGPU device was lost..."`); those are split into name and message.
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
