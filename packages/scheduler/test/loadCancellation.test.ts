import { describe, expect, it } from 'vitest';
import { EnginePool } from '../src/index.js';
import type { CreateEngine, Engine } from '../src/index.js';
import { createFakeEngine } from '../src/testing/index.js';

/** A `createEngine` whose loads finish only when the test says, and which stops when told. */
function gatedLoads() {
  const signals: AbortSignal[] = [];
  const finish: Array<(engine: Engine) => void> = [];
  const createEngine: CreateEngine = (_index, _onProgress, options) => {
    const signal = options?.signal ?? new AbortController().signal;
    signals.push(signal);
    return new Promise<Engine>((resolve, reject) => {
      finish.push(resolve);
      signal.addEventListener('abort', () => reject(new Error('load stopped')), { once: true });
    });
  };
  return { createEngine, signals, finish };
}

describe('unload() during a load', () => {
  it('tells the load in flight to stop, so it need not run to the end', async () => {
    const { createEngine, signals } = gatedLoads();
    const pool = new EnginePool({ createEngine });
    const loading = pool.load();
    expect(signals[0]?.aborted).toBe(false);
    await pool.unload();
    expect(signals[0]?.aborted).toBe(true);
    await expect(loading).resolves.toBe(0);
    expect(pool.getSnapshot().phase).toBe('idle');
  });

  it('gives the next load a fresh signal', async () => {
    const { createEngine, signals, finish } = gatedLoads();
    const pool = new EnginePool({ createEngine });
    void pool.load();
    await pool.unload();
    const second = pool.load();
    expect(signals[1]?.aborted).toBe(false);
    finish[1]?.(createFakeEngine());
    await expect(second).resolves.toBe(1);
  });

  it('still tears down an engine that ignores the signal and arrives late', async () => {
    const engine = createFakeEngine();
    let arrive!: () => void;
    const pool = new EnginePool({
      createEngine: () => new Promise<Engine>((resolve) => (arrive = () => resolve(engine))),
    });
    const loading = pool.load();
    await pool.unload();
    arrive();
    await expect(loading).resolves.toBe(0);
    expect(engine.unloaded).toBe(true);
  });
});
