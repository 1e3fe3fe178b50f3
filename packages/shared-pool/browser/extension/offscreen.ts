import type { CreateEngine } from '@inkling/scheduler';
import { fakeEngines } from '@inkling/scheduler/testing';
import { hostOffscreenPool } from '../../src/extension/index.js';
import { CHROME_CALLS, missingCalls } from '../../test/fakeChromeShape.js';
import { ENGINE } from '../scene.js';

// The test extension's offscreen document: the package's host on fake engines, counting builds.
let builds = 0;
const engines = fakeEngines(ENGINE);
const createEngine: CreateEngine = (index, onProgress, options) => {
  builds += 1;
  return engines(index, onProgress, options);
};
const startedAt = Date.now();
hostOffscreenPool({ createEngine, size: 1 });

chrome.runtime.onMessage.addListener((message, _sender, sendResponse) => {
  const { test, error } = message as { test?: string; error?: string };
  if (test === 'fail-next') {
    // The next job on the engine fails with this text (a server's validation error quoting a card, say).
    engines.engines[0]?.failNext(new Error(error));
    sendResponse(true);
    return undefined;
  }
  if (test !== 'offscreen') return undefined;
  sendResponse({ builds, startedAt, missing: missingCalls(chrome, CHROME_CALLS.everywhere) });
  return undefined;
});
