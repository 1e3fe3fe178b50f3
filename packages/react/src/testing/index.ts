// SIMULATED engines for stories, demos and tests: no model, no GPU.
export { simulatedEngines } from './simulatedEngines.js';
export { simulatedReply } from './simulatedReply.js';
export { pseudoTranslate } from './pseudoTranslate.js';
export { simulatedGhostReply } from './simulatedGhostReply.js';
export type { SimulatedEnginesOptions } from './simulatedEngines.js';
export type { FakeEngine, FakeEngineFactory } from '@inkling/scheduler/testing';
