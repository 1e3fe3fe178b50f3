import { defineConfig } from 'vitest/config';

export default defineConfig({
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
