import { playwright } from '@vitest/browser-playwright';
import { defaultClientConditions } from 'vite';
import { defineProject } from 'vitest/config';
import { CHROMIUM, chromiumFlags } from '../../e2e/support/chromiumFlags.js';

// The ghost overlay against Chromium's own text layout (never a downloaded browser): happy-dom
// lays nothing out, so where the ghost lands can only be checked here.
export default defineProject({
  resolve: { conditions: ['@inkling/source', ...defaultClientConditions] },
  optimizeDeps: { include: ['fast-check'] },
  test: {
    name: 'ghost-overlay-chromium',
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    browser: {
      enabled: true,
      headless: true,
      provider: playwright({
        launchOptions: {
          executablePath: CHROMIUM,
          args: chromiumFlags({ headlessSwitch: false }),
          // Scrollbars that take room, as a person's Chromium on Linux or Windows draws them
          // (Playwright hides them in headless runs).
          ignoreDefaultArgs: ['--hide-scrollbars'],
        },
      }),
      viewport: { width: 1280, height: 900 },
      instances: [{ browser: 'chromium' }],
    },
  },
});
