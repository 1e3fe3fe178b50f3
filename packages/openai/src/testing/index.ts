export { simulatedServer } from './simulatedServer.js';
export type { SimulatedServerOptions } from './simulatedServer.js';
export { schedulingServer } from './schedulingServer.js';
export type { SchedulingServer, SchedulingServerOptions, SeenRequest } from './schedulingServer.js';
