import { defineProject } from 'vitest/config';

export default defineProject({
  resolve: { conditions: ['@inkling/source'] },
  test: {
    name: 'scheduler',
    include: ['test/**/*.test.ts'],
    environment: 'node',
  },
});
