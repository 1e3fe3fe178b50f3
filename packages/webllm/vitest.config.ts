import { defineProject } from 'vitest/config';

// Tests run in Vite's server environment, which takes its own conditions:
// '@inkling/source' there too, so @inkling/scheduler resolves to its src.
const conditions = ['@inkling/source'];

export default defineProject({
  resolve: { conditions },
  ssr: { resolve: { conditions: [...conditions, 'module', 'node', 'development|production'] } },
  test: {
    name: 'webllm',
    include: ['test/**/*.test.ts'],
    environment: 'node',
  },
});
