import type { FrameScheduler } from '../../src/base/core/frameScheduler.js';

export { engineCalls, fakePool } from '@inkling/scheduler/testing';

/** A frame clock driven by hand: `tick()` runs one frame. */
export function manualFrames() {
  let pending: Array<() => void> = [];
  const scheduleFrame: FrameScheduler = (callback) => {
    pending.push(callback);
    return () => {
      pending = pending.filter((cb) => cb !== callback);
    };
  };
  return {
    scheduleFrame,
    get pending() {
      return pending.length;
    },
    tick() {
      const due = pending;
      pending = [];
      for (const callback of due) callback();
    },
  };
}

/** Lets pending microtasks run. */
export function flushMicrotasks(): Promise<void> {
  return new Promise((resolve) => queueMicrotask(resolve));
}

/** Words of `text` as the fake engine streams them. */
export function words(n: number, prefix = 'w'): string {
  return Array.from({ length: n }, (_, i) => `${prefix}${i}`).join(' ');
}
