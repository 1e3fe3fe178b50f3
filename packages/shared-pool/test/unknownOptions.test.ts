import { EnginePool, InvalidOptionError } from '@inkling/scheduler';
import { fakeEngines } from '@inkling/scheduler/testing';
import { describe, expect, it } from 'vitest';
import { type ExtensionBackgroundOptions, extensionBackground } from '../src/extension/index.js';
import { type PoolHostOptions, type SharedPoolOptions, PoolHost, hostSharedWorker, sharedPool } from '../src/index.js';
import { fakeExtension } from './fakeChrome.js';

const scope = { addEventListener: () => {} };

/** The message of what `make` throws, which must be an `InvalidOptionError`. */
function refusal(make: () => unknown): string {
  let thrown: unknown;
  try {
    make();
  } catch (error) {
    thrown = error;
  }
  expect(thrown).toBeInstanceOf(InvalidOptionError);
  return (thrown as Error).message;
}

describe('an option the shared pool does not take', () => {
  it('PoolHost names it and the near one', () => {
    const pool = new EnginePool({ createEngine: fakeEngines() });
    expect(refusal(() => new PoolHost(pool, { locks: null, veiw: 'all' } as never))).toBe(
      'PoolHost has no option "veiw" (did you mean "view"?): remove or rename it. Its options: snapshotIntervalMs, view, timers, locks, hostId, now, timeOrigin, limits.',
    );
  });

  it('PoolHost takes every option it documents', () => {
    const pool = new EnginePool({ createEngine: fakeEngines() });
    const all: Required<PoolHostOptions> = {
      snapshotIntervalMs: 10,
      locks: null,
      hostId: 'h',
      timers: { setTimeout, clearTimeout },
      now: () => 0,
      timeOrigin: 0,
      view: 'own',
      limits: {},
    };
    expect(new PoolHost(pool, all)).toBeInstanceOf(PoolHost);
  });

  it("hostSharedWorker: the pool's options are EnginePool's, so a typo there is named by EnginePool", () => {
    expect(refusal(() => hostSharedWorker({ scope, createEngine: fakeEngines(), sise: 1 } as never))).toContain(
      'EnginePool has no option "sise" (did you mean "size"?)',
    );
    expect(hostSharedWorker({ scope, createEngine: fakeEngines(), locks: null, view: 'all', limits: {} })).toBeInstanceOf(PoolHost);
  });

  it('extensionBackground names it and the near one, and takes every option it documents', () => {
    const world = fakeExtension({ setTimeout, offscreenScript: () => {} });
    expect(refusal(() => extensionBackground({ chrome: world.background, readyTimeout: 5 } as never))).toContain(
      'extensionBackground has no option "readyTimeout" (did you mean "readyTimeoutMs"?)',
    );
    const all: Required<ExtensionBackgroundOptions> = {
      url: 'offscreen.html',
      reasons: ['WORKERS'],
      justification: 'engines',
      readyTimeoutMs: 100,
      chrome: world.background,
      timers: { setTimeout, clearTimeout },
    };
    expect(() => extensionBackground(all)).not.toThrow();
  });
});

describe('an option sharedPool or a limit does not take', () => {
  it('sharedPool names it and the near one, and takes every option it documents', () => {
    expect(refusal(() => sharedPool({ name: 'notes', pool: { createEngine: fakeEngines() }, mod: 'tab' } as never))).toBe(
      'sharedPool() has no option "mod" (did you mean "mode"?): remove or rename it. Its options: name, worker, pool, mode, errorClasses, presence, locks, openChannel, reconnect, view, limits.',
    );
    const all: Required<SharedPoolOptions> = {
      name: 'notes',
      worker: () => ({ port: new MessageChannel().port1 }),
      pool: { createEngine: fakeEngines() },
      mode: 'auto',
      errorClasses: {},
      presence: { get: () => ({ visible: true, focused: true }), subscribe: () => () => {} },
      locks: { request: async () => undefined } as never,
      openChannel: () => ({ postMessage: () => {}, addEventListener: () => {}, removeEventListener: () => {}, close: () => {} }) as never,
      reconnect: { delayMs: 10 },
      view: 'own',
      limits: {},
    };
    expect(() => sharedPool(all)).not.toThrow();
  });

  it('a limit PoolHost does not take is named with the near one', () => {
    const pool = new EnginePool({ createEngine: fakeEngines() });
    expect(refusal(() => new PoolHost(pool, { locks: null, limits: { maxJobs: 5 } as never }))).toBe(
      'PoolHost "limits" has no option "maxJobs": remove or rename it. Its options: maxKeyLength, maxMessages, maxSpecChars, maxJobsPerClient.',
    );
    expect(refusal(() => new PoolHost(pool, { locks: null, limits: { maxMessage: 5 } as never }))).toContain(
      '(did you mean "maxMessages"?)',
    );
  });
});
