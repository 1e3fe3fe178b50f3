/**
 * Reports an error thrown by someone else's callback (a listener, `onChunk`,
 * `onProgress`) without letting it break the pool: through the platform's
 * `reportError` where there is one, else the console.
 *
 * @example
 * try { onChunk(chunk); } catch (error) { reportError(error); }
 */
export function reportError(error: unknown): void {
  const report = (globalThis as { reportError?: (e: unknown) => void }).reportError;
  if (typeof report === 'function') report(error);
  else console.error(error);
}

/**
 * Runs a caller's callback (a listener, `onChunk`, `onProgress`), reporting
 * what it throws (`reportError`) instead of letting it break the caller.
 *
 * @example
 * guard(() => onChunk(chunk));
 */
export function guard(fn: () => void): void {
  try {
    fn();
  } catch (error) {
    reportError(error);
  }
}
