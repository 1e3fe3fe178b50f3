import { playwright } from '@vitest/browser-playwright';
import { defaultClientConditions } from 'vite';
import { defineProject } from 'vitest/config';
import { CHROMIUM, chromiumFlags } from '../../e2e/support/chromiumFlags.js';

// The built-in AI suite, in Debian's Chromium (never a downloaded browser), whose LanguageModel,
// Translator and LanguageDetector are real: offline and without a model, they answer
// 'unavailable' (Prompt API, detector) and 'downloadable' (en→fr). Nothing may download here.
export default defineProject({
  resolve: { conditions: ['@inkling/source', ...defaultClientConditions] },
  // Listed up front: a dependency found mid-run makes Vite reload the page under a running test.
  optimizeDeps: {
    exclude: ['@wllama/wllama'],
    include: ['react', 'react-dom', 'react-dom/client', 'react/jsx-dev-runtime', '@tanstack/react-query', '@testing-library/react'],
  },
  test: {
    name: 'browser-ai-chromium',
    include: ['test/**/*.test.{ts,tsx}'],
    testTimeout: 30_000,
    fileParallelism: false,
    browser: {
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
