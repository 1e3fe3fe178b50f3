import { clientTestApi } from './clientTestApi.js';

// The test extension's popup page (opened as a tab by the test): the client test API, on globalThis.
Object.assign(globalThis, { inklingClient: clientTestApi() });
