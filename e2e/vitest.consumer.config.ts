import { defaultServerConditions } from 'vite';
import { defineConfig } from 'vitest/config';

// The consumer test: the packages packed, installed with npm into fresh apps
// outside the workspace, built for production and opened in Chromium.
export default defineConfig({
  // The tests run in Node (which Vite resolves as SSR); the test model's writer comes from its source.
  ssr: { resolve: { conditions: ['@inkling/source', ...defaultServerConditions] } },
  test: {
    name: 'consumer',
    include: ['consumer/**/*.consumer.ts'],
    environment: 'node',
    globalSetup: ['./consumer/setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 300_000,
    fileParallelism: false,
  },
});
