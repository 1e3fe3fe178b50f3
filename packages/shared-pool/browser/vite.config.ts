import { fileURLToPath } from 'node:url';
import { defaultClientConditions, defineConfig } from 'vite';

const here = (file: string) => fileURLToPath(new URL(file, import.meta.url));

// The browser suite's test pages (fake engines; wllama): built from the sources, served as static files.
export default defineConfig({
  root: here('.'),
  resolve: { conditions: ['@inkling/source', ...defaultClientConditions] },
  worker: { format: 'es' },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    minify: false,
    rollupOptions: { input: { index: here('./index.html'), wllama: here('./wllama.html') } },
  },
  logLevel: 'warn',
});
