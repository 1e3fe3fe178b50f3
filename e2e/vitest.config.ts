import { defaultServerConditions } from 'vite';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  // The tests run in Node (which Vite resolves as SSR), from the packages' sources.
  ssr: { resolve: { conditions: ['@inkling/source', ...defaultServerConditions] } },
  test: {
    name: 'e2e',
    include: ['**/*.e2e.ts'],
    environment: 'node',
    globalSetup: ['./support/globalSetup.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // One browser at a time: this machine has two cores.
    fileParallelism: false,
  },
});
