import { fileURLToPath } from 'node:url';
import { storybookTest } from '@storybook/addon-vitest/vitest-plugin';
import { playwright } from '@vitest/browser-playwright';
import { defaultClientConditions } from 'vite';
import { configDefaults, defineProject } from 'vitest/config';
import { CHROMIUM, chromiumFlags } from '../e2e/support/chromiumFlags.js';

// Every story's play function and axe check, in Debian's Chromium (never a downloaded browser).
export default defineProject({
  // An absolute configDir: the root's `vitest run` starts this project from the repository root.
  plugins: [storybookTest({ configDir: fileURLToPath(new URL('./.storybook', import.meta.url)) })],
  resolve: { conditions: ['@inkling/source', ...defaultClientConditions] },
  test: {
    name: 'storybook',
    // Docs pages (MDX) hold no stories of their own: nothing to run.
    exclude: [...configDefaults.exclude, '**/*.mdx'],
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
