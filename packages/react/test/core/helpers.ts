import { EnginePool, type EnginePoolOptions } from '@inkling/scheduler';
import { type FakeEnginesOptions, fakeEngines } from '@inkling/scheduler/testing';
import type { FrameScheduler } from '../../src/core/frameScheduler.js';

/** A pool of fake engines, plus the factory that remembers them. */
export function fakePool(engine: FakeEnginesOptions = {}, pool: Partial<EnginePoolOptions> = {}) {
  const createEngine = fakeEngines(engine);
  return { pool: new EnginePool({ createEngine, ...pool }), createEngine };
}

/** Engine calls that really ran (a call closed before it started cost nothing). */
export function engineCalls(factory: ReturnType<typeof fakeEngines>) {
  return factory.engines.flatMap((engine) => engine.calls).filter((call) => call.state !== 'closed');
}

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
