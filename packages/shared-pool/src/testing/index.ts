export { memoryLocks } from './memoryLocks.js';
export { manualPresence } from '../presence.js';
