import { extensionBackground } from '../../src/extension/index.js';
import { CHROME_CALLS, missingCalls } from '../../test/fakeChromeShape.js';

// The test extension's service worker: the package's background part, and (for the test, through
// playwright's worker.evaluate) the README's old ensureOffscreen, to show the race it had.
const background = extensionBackground({ url: 'offscreen.html' });

async function naiveEnsureOffscreen(): Promise<void> {
  if (await chrome.offscreen.hasDocument()) return;
  await chrome.offscreen.createDocument({ url: 'offscreen.html', reasons: ['WORKERS'], justification: 'test' });
}

const test = {
  ensureOffscreen: () => background.ensureOffscreen(),
  naiveEnsureOffscreen,
  offscreenDocuments: async () => (await chrome.runtime.getContexts({ contextTypes: ['OFFSCREEN_DOCUMENT'] })).length,
  closeOffscreen: () => chrome.offscreen.closeDocument(),
  missingCalls: () => missingCalls(chrome, [...CHROME_CALLS.everywhere, ...CHROME_CALLS.background]),
};
Object.assign(globalThis, { inklingBackground: test });
export type BackgroundTestApi = typeof test;
