import { EnginePool } from '../enginePool.js';
import type { EnginePoolOptions } from '../types.js';
import type { FakeEngineCall } from './fakeEngineTypes.js';
import { type FakeEngineFactory, type FakeEnginesOptions, fakeEngines } from './fakeEngines.js';

/**
 * A pool of fake engines, with the factory that remembers every engine it
 * built (and so every call they received). The helper every suite shares.
 *
 * @example
 * const { pool, createEngine } = fakePool({ reply: 'Hello', tokenMs: 10 }, { size: 1 });
 * await pool.load();
 */
export function fakePool(
  engine: FakeEnginesOptions = {},
  pool: Partial<EnginePoolOptions> = {},
): { pool: EnginePool; createEngine: FakeEngineFactory } {
  const createEngine = fakeEngines(engine);
  return { pool: new EnginePool({ createEngine, ...pool }), createEngine };
}

/**
 * The calls the factory's engines really ran: one closed before it started
 * cost nothing and is left out.
 *
 * @example
 * expect(engineCalls(createEngine)).toHaveLength(1);
 */
export function engineCalls(factory: FakeEngineFactory): FakeEngineCall[] {
  return factory.engines.flatMap((engine) => engine.calls).filter((call) => call.state !== 'closed');
}
