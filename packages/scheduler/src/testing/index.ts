export { createFakeEngine } from './fakeEngine.js';
export type { FakeEngine, FakeEngineCall, FakeEngineOptions } from './fakeEngine.js';
export { fakeEngines } from './fakeEngines.js';
export { engineCalls, fakePool } from './fakePool.js';
export type { FakeEngineFactory, FakeEnginesOptions } from './fakeEngines.js';
export { seededRandom } from './seededRandom.js';
