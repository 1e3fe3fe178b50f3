export { simulatedServer } from './simulatedServer.js';
export type { SimulatedServerOptions } from './simulatedServer.js';
