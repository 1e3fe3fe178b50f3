import { EnginePool } from '../src/index.js';
import type { ChatJobSpec, EnginePoolOptions } from '../src/index.js';
import { type FakeEnginesOptions, fakeEngines } from '../src/testing/index.js';

/** A chat job spec asking for `content`. */
export function chat(content: string, extra: Partial<ChatJobSpec> = {}): ChatJobSpec {
  return { params: { messages: [{ role: 'user', content }] }, ...extra };
}

/** A pool of fake engines, plus the factory that remembers them. */
export function fakePool(engine: FakeEnginesOptions = {}, pool: Partial<EnginePoolOptions> = {}) {
  const createEngine = fakeEngines(engine);
  return { pool: new EnginePool({ createEngine, ...pool }), createEngine };
}

/** Lets every pending microtask and zero-delay step run (real timers). */
export function drain(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}
