import type { CreateEngine } from '@inkling/scheduler';
import { fakeEngines } from '@inkling/scheduler/testing';
import { hostSharedWorker } from '../src/index.js';
import { BUILDS_CHANNEL, CRASH_CHANNEL, ENGINE } from './scene.js';

// The SharedWorker of the browser suite: one pool of fake engines for every tab.
const engines = fakeEngines(ENGINE);
const builds = new BroadcastChannel(BUILDS_CHANNEL);
const createEngine: CreateEngine = (index, onProgress, options) => {
  // oxlint-disable-next-line unicorn/require-post-message-target-origin -- a BroadcastChannel
  builds.postMessage({ where: 'worker' });
  return engines(index, onProgress, options);
};
// The full view: the suite reads every tab's jobs from any tab (all of them are this test app).
hostSharedWorker({ createEngine, size: 1, view: 'all' });

// Test only: the suite kills the host the way a crash would, and tabs must notice.
new BroadcastChannel(CRASH_CHANNEL).addEventListener('message', () => (self as unknown as { close(): void }).close());
