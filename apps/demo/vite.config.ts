import react from '@vitejs/plugin-react';
import { defaultClientConditions, defineConfig } from 'vite';

export default defineConfig({
  plugins: [react()],
  // Run the workspace packages from their sources.
  resolve: { conditions: ['@inkling/source', ...defaultClientConditions] },
  // Engines run in module workers.
  worker: { format: 'es' },
  server: { port: 5173 },
  // wllama is served as published, not pre-bundled (as @inkling/wllama's README asks).
  optimizeDeps: { exclude: ['@wllama/wllama'] },
  // WebLLM's runtime is one 6 MB module, loaded only when a real model is chosen.
  build: { chunkSizeWarningLimit: 7000 },
});
