/**
 * Runs `callback` once, at the next animation frame or its stand-in, and
 * returns the function that calls it off. Hooks use one to coalesce a stream
 * of tokens into at most one render per frame.
 *
 * @example
 * // A test drives frames by hand:
 * const frames: Array<() => void> = [];
 * const scheduleFrame: FrameScheduler = (cb) => (frames.push(cb), () => {});
 */
export type FrameScheduler = (callback: () => void) => () => void;

/** About one frame at 60 Hz, for places that have no `requestAnimationFrame`. */
const FALLBACK_FRAME_MS = 16;

/**
 * The default `FrameScheduler`: `requestAnimationFrame` where the platform has
 * it, else a 16 ms timer (Node, workers, tests in a bare environment). Both
 * are looked up when called, never at import, so fake timers replace them.
 *
 * @example
 * const cancel = animationFrame(() => flush());
 */
export const animationFrame: FrameScheduler = (callback) => {
  if (typeof requestAnimationFrame === 'function' && typeof cancelAnimationFrame === 'function') {
    const handle = requestAnimationFrame(() => callback());
    return () => cancelAnimationFrame(handle);
  }
  const handle = setTimeout(callback, FALLBACK_FRAME_MS);
  return () => clearTimeout(handle);
};
