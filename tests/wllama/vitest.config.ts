import { fileURLToPath } from 'node:url';
import { playwright } from '@vitest/browser-playwright';
import { defaultClientConditions, defaultServerConditions } from 'vite';
import { defineProject } from 'vitest/config';
import { CHROMIUM, chromiumFlags } from '../../e2e/support/chromiumFlags.js';
import { modelPages } from './modelPages.js';
import { modelServer } from './modelServer.js';
import { storageQuota } from './storageQuota.js';

// The real-engine suite: @inkling/react against wllama (llama.cpp in WebAssembly, on the CPU)
// on tiny random-weight GGUF models that globalSetup writes to <root>/.test-models, in
// Debian's Chromium (never a downloaded browser). wllama needs no GPU: --disable-gpu is fine.
export default defineProject({
  // /__models/<key>/<file>: the models again, with ranges on or off and a cut on demand (the storage tests).
  plugins: [modelServer(fileURLToPath(new URL('../../.test-models/', import.meta.url)))],
  resolve: { conditions: ['@inkling/source', ...defaultClientConditions] },
  // globalSetup runs in Node, which Vite resolves as SSR.
  ssr: { resolve: { conditions: ['@inkling/source', ...defaultServerConditions] } },
  // The generated models are served at /<file>.
  publicDir: fileURLToPath(new URL('../../.test-models/', import.meta.url)),
  // Listed up front: a dependency found mid-run makes Vite reload the page under a running test.
  optimizeDeps: {
    exclude: ['@wllama/wllama'],
    include: [
      '@mlc-ai/web-llm',
      'react',
      'react-dom',
      'react-dom/client',
      'react/jsx-dev-runtime',
      '@tanstack/react-query',
      '@testing-library/react',
    ],
  },
  test: {
    name: 'real-engine',
    include: ['test/**/*.test.{ts,tsx}'],
    globalSetup: [fileURLToPath(new URL('./globalSetup.ts', import.meta.url))],
    testTimeout: 30_000,
    // One file at a time: each loads real engines, and the machine may have two cores.
    fileParallelism: false,
    browser: {
      // Tabs of their own in the test's browser context: a real reload, two tabs at once (storage.test.ts);
      // the origin's real quota, which Chrome's estimate() does not report (webllmRoom.test.ts, storage.test.ts).
      commands: { modelPages, storageQuota },
      enabled: true,
      headless: true,
      provider: playwright({
        launchOptions: {
          executablePath: CHROMIUM,
          args: chromiumFlags({ headlessSwitch: false }),
        },
      }),
      instances: [{ browser: 'chromium' }],
    },
  },
});
