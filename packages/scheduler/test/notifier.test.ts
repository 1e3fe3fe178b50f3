import { afterEach, expect, it, vi } from 'vitest';
import { EnginePool } from '../src/index.js';
import { fakeEngines } from '../src/testing/index.js';

afterEach(() => {
  vi.unstubAllGlobals();
});

it('batches notifications with the global queueMicrotask called as browsers require (no foreign `this`)', async () => {
  const real = globalThis.queueMicrotask;
  // Like a browser's: a native function that refuses to run on another object.
  vi.stubGlobal('queueMicrotask', function strict(this: unknown, callback: () => void) {
    if (this !== undefined && this !== globalThis) throw new TypeError('Illegal invocation');
    real(callback);
  });
  const pool = new EnginePool({ createEngine: fakeEngines() });
  const heard = vi.fn<() => void>();
  pool.subscribe(heard);
  await expect(pool.load()).resolves.toBe(1);
  await Promise.resolve();
  expect(heard).toHaveBeenCalled();
});
