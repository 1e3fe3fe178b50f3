import { LoadCancelledError, type LoadProgress, type PoolTimers } from '@inkling/scheduler';
import { globalTimers } from '@inkling/scheduler/engine';
import type { CreateMonitorOptions } from './builtInApis.js';
import { BuiltInDownloadStalledError, BuiltInGestureRequiredError } from './errors.js';

/** How `createWithDownload` reports and bounds a download. */
export interface DownloadWatch {
  /** What is being made, for messages: `'the en→fr translator'`. */
  what: string;
  /** Aborted to give up: the promise rejects at once with `LoadCancelledError` (`device: 'browser'`). */
  signal?: AbortSignal | undefined;
  onProgress?: ((report: LoadProgress) => void) | undefined;
  /** Time without a `downloadprogress` event before giving up, in ms. */
  stallMs: number;
  timers?: PoolTimers | undefined;
}

/**
 * Calls an API's `create()` with a download monitor, and turns what the
 * browser does into load behaviour: `downloadprogress` as progress that never
 * goes back, a signal that settles the wait at once (the browser's own
 * `create()` may stay pending, and an instance that still arrives is
 * destroyed), and a download that makes no progress for `stallMs` a
 * `BuiltInDownloadStalledError` saying what to check.
 */
export function createWithDownload<T extends { destroy(): void }>(
  create: (options: Required<CreateMonitorOptions>) => Promise<T>,
  { what, signal, onProgress, stallMs, timers = globalTimers }: DownloadWatch,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const inner = new AbortController();
    let settled = false;
    let timer: unknown;
    const finish = (fail: Error | undefined, value?: T) => {
      if (settled) return;
      settled = true;
      timers.clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      if (fail) {
        inner.abort(fail);
        reject(fail);
      } else resolve(value as T);
    };
    const arm = () => {
      timers.clearTimeout(timer);
      if (stallMs === Infinity) return;
      timer = timers.setTimeout(
        () =>
          finish(
            new BuiltInDownloadStalledError(
              `${capitalize(what)} made no download progress in ${stallMs} ms: check that the device is online and can reach Google's model servers, and that it has about 22 GB of free disk; then load again.`,
            ),
          ),
        stallMs,
      );
    };
    const onAbort = () =>
      finish(new LoadCancelledError(`Loading ${what} was cancelled.`, { device: 'browser', model: what, cause: signal?.reason }));
    if (signal?.aborted) {
      onAbort();
      return;
    }
    signal?.addEventListener('abort', onAbort, { once: true });
    arm();
    const monitor = progressMonitor(what, arm, (report) => {
      if (!settled) onProgress?.(report);
    });
    let made: Promise<T>;
    try {
      made = create({ monitor, signal: inner.signal });
    } catch (error) {
      made = Promise.reject(error);
    }
    made.then(
      (value) => {
        if (settled) value.destroy();
        else finish(undefined, value);
      },
      (error: unknown) => finish(createError(error, what)),
    );
  });
}

/**
 * The `monitor` a `create()` takes: each `downloadprogress` event re-arms the
 * stall bound and is reported as progress that never goes back (a browser may
 * restart a download or report a second file from 0).
 */
function progressMonitor(what: string, arm: () => void, report: (progress: LoadProgress) => void): (target: EventTarget) => void {
  let shown = 0;
  return (target) =>
    target.addEventListener('downloadprogress', (event) => {
      const loaded = Number((event as Event & { loaded?: unknown }).loaded);
      if (!Number.isFinite(loaded)) return;
      arm();
      shown = Math.max(shown, Math.min(1, Math.max(0, loaded)));
      report({ progress: shown, text: `Downloading ${what}: ${Math.round(shown * 100)}%` });
    });
}

/** The browser's refusal, typed where it is one we can name. */
function createError(error: unknown, what: string): Error {
  const { name, message } = (error ?? {}) as { name?: unknown; message?: unknown };
  if (name === 'NotAllowedError' && /gesture|activation/i.test(String(message))) {
    return new BuiltInGestureRequiredError(
      `The browser downloads ${what} only when a person clicks or presses a key: call pool.load() from the click handler of a button (it answered: ${String(message)}).`,
      { cause: error },
    );
  }
  return error instanceof Error ? error : new Error(String(error));
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
