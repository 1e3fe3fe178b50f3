import type { CreateEngine } from '@inkling/scheduler';
import { wllamaEngines } from '@inkling/wllama';
import { hostOffscreenPool } from '../../src/extension/index.js';
import { WLLAMA_MODEL_FILE } from '../scene.js';

// The wllama variant of the test extension's offscreen document: the real CPU engine (its own Web
// Worker, started from this document) on the generated model the test writes beside it.
let builds = 0;
let workers = 0;
const DocumentWorker = globalThis.Worker;
globalThis.Worker = class CountedWorker extends DocumentWorker {
  constructor(url: string | URL, options?: WorkerOptions) {
    super(url, options);
    workers += 1;
  }
};
const engines = wllamaEngines({ model: chrome.runtime.getURL(WLLAMA_MODEL_FILE), wasmUrl: chrome.runtime.getURL('wllama.wasm'), seed: 7 });
const createEngine: CreateEngine = (index, onProgress, options) => {
  builds += 1;
  return engines(index, onProgress, options);
};
const startedAt = Date.now();
hostOffscreenPool({ createEngine, size: 1 });

chrome.runtime.onMessage.addListener((message, _sender, sendResponse) => {
  if ((message as { test?: string }).test !== 'offscreen') return undefined;
  sendResponse({ builds, workers, startedAt, missing: [] });
  return undefined;
});
