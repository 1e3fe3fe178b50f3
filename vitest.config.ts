import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // The packages' suites (happy-dom, node) and the stories' play functions and axe checks (Chromium).
    projects: ['packages/*', 'stories'],
  },
});
