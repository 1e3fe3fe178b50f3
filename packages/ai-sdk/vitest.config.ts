import { defaultServerConditions } from 'vite';
import { defineProject } from 'vitest/config';

export default defineProject({
  resolve: { conditions: ['@inkling/source'] },
  // Tests run in Node, which Vite resolves as SSR: `resolve.conditions` alone
  // does not reach it, and this package's tests import @inkling/scheduler by name.
  ssr: { resolve: { conditions: ['@inkling/source', ...defaultServerConditions] } },
  test: {
    name: 'ai-sdk',
    include: ['test/**/*.test.{ts,tsx}'],
    environment: 'node',
  },
});
