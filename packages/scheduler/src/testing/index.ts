export { createFakeEngine } from './fakeEngine.js';
export type { FakeEngine, FakeEngineCall, FakeEngineOptions } from './fakeEngine.js';
export { fakeEngines } from './fakeEngines.js';
export type { FakeEngineFactory, FakeEnginesOptions } from './fakeEngines.js';
