export { createFakeBuiltInAI } from './fakeBuiltInAI.js';
export type { FakeAvailability, FakeBuiltInAI, FakeBuiltInAIOptions, FakeBuiltInAIStats } from './fakeBuiltInAIOptions.js';
export { BUILT_IN_SURFACE } from './builtInSurface.js';
