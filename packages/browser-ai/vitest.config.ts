import { defaultServerConditions } from 'vite';
import { defineProject } from 'vitest/config';

export default defineProject({
  resolve: { conditions: ['@inkling/source'] },
  // Tests run in Node, which Vite resolves as SSR: `resolve.conditions` alone does not reach it.
  // (The engines against Chromium's real APIs and the hooks end to end run in tests/browser-ai.)
  ssr: { resolve: { conditions: ['@inkling/source', ...defaultServerConditions] } },
  test: {
    name: 'browser-ai',
    include: ['test/**/*.test.ts'],
    environment: 'node',
  },
});
