/**
 * True for an `AbortSignal`, told by its shape rather than `instanceof`, so a
 * signal from another realm (an iframe, a test environment, a second copy of
 * a polyfill) counts as one.
 *
 * @example
 * if (isAbortSignal(spec.signal)) spec.signal.addEventListener('abort', stop, { once: true });
 */
export function isAbortSignal(value: unknown): value is AbortSignal {
  const signal = value as Partial<AbortSignal> | null | undefined;
  return typeof signal?.aborted === 'boolean' && typeof signal.addEventListener === 'function';
}
