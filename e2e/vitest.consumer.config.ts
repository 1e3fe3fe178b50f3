import { defineConfig } from 'vitest/config';

// The consumer test: the packages packed, installed with npm into fresh apps
// outside the workspace, built for production and opened in Chromium.
export default defineConfig({
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
