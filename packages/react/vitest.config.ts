import { defineProject } from 'vitest/config';

export default defineProject({
  // `resolve` serves happy-dom suites, `ssr.resolve` the ones that run in `node`.
  resolve: { conditions: ['@inkling/source'] },
  ssr: { resolve: { conditions: ['@inkling/source'] } },
  test: {
    name: 'react',
    include: ['test/**/*.test.{ts,tsx}'],
    // React suites; the core's own tests and the SSR import test opt into `node` per file.
    environment: 'happy-dom',
    setupFiles: ['./test/setup.ts'],
    typecheck: {
      enabled: true,
      include: ['test/**/*.test-d.{ts,tsx}'],
      tsconfig: './tsconfig.json',
    },
  },
});
