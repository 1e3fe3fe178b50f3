import type { CreateEngine } from '@inkling/scheduler';
import { hostSharedWorker } from '@inkling/shared-pool';
import { webllmEngines } from '@inkling/webllm';
// The bundler maps this to the pinned 0.2.79 the model libraries need.
import { MLCEngine, prebuiltAppConfig } from '@mlc-ai/web-llm';
import { CHAT_MODEL, syntheticAppConfig } from '../setup.js';
import { inThreadWorker } from './inThreadWorker.js';
import { BUILDS_CHANNEL } from './sharedScene.js';

// The SharedWorker of `verify:real-engine --host=shared-worker`: one pool for every tab, its
// WebLLM engine in this worker's own thread (Chromium cannot start a Worker from here).
const engines = webllmEngines({
  model: CHAT_MODEL,
  appConfig: syntheticAppConfig(location.origin, false),
  worker: () => inThreadWorker({ MLCEngine, prebuiltAppConfig } as never),
  engineConfig: { logLevel: 'WARN' },
});
const builds = new BroadcastChannel(BUILDS_CHANNEL);
const createEngine: CreateEngine = (index, onProgress, options) => {
  // oxlint-disable-next-line unicorn/require-post-message-target-origin -- a BroadcastChannel
  builds.postMessage({ index });
  return engines(index, onProgress, options);
};
hostSharedWorker({ createEngine, size: 1 });
