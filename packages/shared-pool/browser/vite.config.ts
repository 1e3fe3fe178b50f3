import { fileURLToPath } from 'node:url';
import { defaultClientConditions, defineConfig } from 'vite';

// The browser suite's test page: built from the sources, served as static files.
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  resolve: { conditions: ['@inkling/source', ...defaultClientConditions] },
  worker: { format: 'es' },
  build: { outDir: 'dist', emptyOutDir: true, minify: false },
  logLevel: 'warn',
});
