import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // The packages' suites (happy-dom, node), the stories' play functions and axe checks (Chromium),
    // and the real-engine suite (Chromium, wllama on tiny generated models).
    projects: ['packages/*', 'stories', 'tests/*'],
  },
});
