import type { PoolTimers } from './types.js';

/**
 * The platform's `setTimeout`/`clearTimeout` as `PoolTimers`, looked up when
 * called, so fake timers installed after import still apply. The default of
 * every `timers` option in Inkling.
 *
 * @example
 * const timers = options.timers ?? globalTimers;
 * const handle = timers.setTimeout(() => console.log('later'), 100);
 */
export const globalTimers: PoolTimers = {
  setTimeout: (callback, ms) => globalThis.setTimeout(callback, ms),
  clearTimeout: (handle) => globalThis.clearTimeout(handle as ReturnType<typeof setTimeout>),
};
