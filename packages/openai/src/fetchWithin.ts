import type { PoolTimers } from '@inkling/scheduler';

/**
 * Calls `send` with a signal that aborts when `signal` does, or when no
 * response came within `ms` (on `timers`; `Infinity` waits for ever). A
 * timeout rejects with what `onTimeout()` returns, at once, even when `send`
 * ignores its signal. The signal stays linked
 * after the response came, so aborting `signal` still stops reading its body.
 *
 * @example
 * const response = await fetchWithin((s) => fetch(url, { signal: s }), { timers, ms: 30_000, signal, onTimeout: () => new Error('slow') });
 */
export async function fetchWithin(
  send: (signal: AbortSignal) => Promise<Response>,
  { timers, ms, signal, onTimeout }: { timers: PoolTimers; ms: number; signal: AbortSignal | undefined; onTimeout: () => Error },
): Promise<Response> {
  const controller = new AbortController();
  const onAbort = () => controller.abort(signal?.reason);
  if (signal?.aborted) controller.abort(signal.reason);
  else signal?.addEventListener('abort', onAbort, { once: true });
  if (ms === Number.POSITIVE_INFINITY) return send(controller.signal);
  return new Promise<Response>((resolve, reject) => {
    let timedOut = false;
    // Settles on time even with a fetch of your own that ignores its signal.
    const handle = timers.setTimeout(() => {
      timedOut = true;
      controller.abort();
      reject(onTimeout());
    }, ms);
    send(controller.signal).then(
      (response) => {
        timers.clearTimeout(handle);
        if (timedOut) void response.body?.cancel().catch(() => {});
        else resolve(response);
      },
      (error: unknown) => {
        timers.clearTimeout(handle);
        reject(error);
      },
    );
  });
}
