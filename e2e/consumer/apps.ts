import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { REGISTRY_DEPENDENCIES } from './packages.js';

/** The app's package.json: the tarballs, the registry packages pinned, one copy of the scheduler. */
function packageJson(
  name: string,
  tarballs: Record<string, string>,
  extra: { dependencies?: object; devDependencies?: object; scripts?: object },
) {
  const local = Object.fromEntries(Object.entries(tarballs).map(([pkg, file]) => [pkg, `file:${file}`]));
  return {
    name,
    private: true,
    type: 'module',
    scripts: extra.scripts ?? {},
    dependencies: { ...local, ...REGISTRY_DEPENDENCIES, ...extra.dependencies },
    devDependencies: extra.devDependencies ?? {},
    // The packages' caret range on @inkling/scheduler is met by the tarball, never the registry.
    overrides: { '@inkling/scheduler': '$@inkling/scheduler' },
  };
}

function write(root: string, files: Record<string, string>): void {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
}

/**
 * The pools both apps use. `webllm`: the default WebLLM worker on a model
 * whose files are not there (no model can load here), so the load fails in
 * the worker with WebLLM's own reason, which proves the worker was bundled,
 * started, answered the handshake and ran WebLLM. `simulated`: a pool of
 * simulated engines that writes the suggestions.
 */
const POOLS = `
import { EnginePool } from '@inkling/react';
import { simulatedEngines } from '@inkling/react/testing';
import { webllmEngines } from '@inkling/webllm';

export const simulated = new EnginePool({ createEngine: simulatedEngines({ prefillMs: 20, tokenMs: 5, loadMs: 50 }), size: 1 });

/** Loads a WebLLM engine in the default worker and writes how it went on <body>. */
export function tryWebLLM() {
  const model = 'consumer-test-model';
  const base = location.origin + '/no-such-model/';
  const appConfig = { model_list: [{ model: base, model_id: model, model_lib: base + 'lib.wasm' }] };
  const pool = new EnginePool({ createEngine: webllmEngines({ model, appConfig, gpu: null }), size: 1 });
  pool.load().then(
    () => (document.body.dataset.webllm = 'loaded'),
    (error) => {
      document.body.dataset.webllmMessage = String(error?.message);
      document.body.dataset.webllm = String(error?.name);
    },
  );
}
`;

/**
 * The Vite app's real engine: wllama on the GGUF file the test serves at
 * `/models/chat.gguf`, with wllama's WebAssembly from the build, as
 * @inkling/wllama's README shows.
 */
const CPU_POOL = `
import { EnginePool } from '@inkling/react';
import { wllamaEngines } from '@inkling/wllama';
import wasmUrl from '@wllama/wllama/esm/wasm/wllama.wasm?url';

export const cpu = new EnginePool({ createEngine: wllamaEngines({ model: '/models/chat.gguf', wasmUrl }), size: 1 });
`;

/**
 * The AI SDK on the simulated pool through @inkling/ai-sdk: one
 * `generateText`, its text and finish reason written on <body> (the pool
 * loads under PoolProvider; the job waits for it).
 */
const AI_SDK = `
import { createInkling } from '@inkling/ai-sdk';
import { generateText } from 'ai';
import { simulated } from './pools.js';

export function tryAiSdk() {
  generateText({ model: createInkling({ pool: simulated })('simulated'), prompt: 'Say hello.' }).then(
    ({ text, finishReason }) => {
      document.body.dataset.aiSdkFinish = finishReason;
      document.body.dataset.aiSdk = text;
    },
    (error) => (document.body.dataset.aiSdkError = String(error?.message)),
  );
}
`;

/**
 * A Vite + React app in `root`: a simulated pool and the WebLLM worker, and
 * with `?cpu` a real wllama engine too (on its own page, so the WebLLM
 * check sees only WebLLM's worker).
 */
export function writeViteApp(root: string, tarballs: Record<string, string>): void {
  const pkg = packageJson('inkling-consumer-vite', tarballs, {
    scripts: { build: 'vite build' },
    dependencies: { '@wllama/wllama': '3.13.0', ai: '7.0.173' },
    devDependencies: { vite: '8.3.8', '@vitejs/plugin-react': '6.3.0' },
  });
  write(root, {
    'package.json': `${JSON.stringify(pkg, null, 2)}\n`,
    'vite.config.js': `import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
export default defineConfig({
  plugins: [react()],
  optimizeDeps: { exclude: ['@wllama/wllama'] },
  build: { chunkSizeWarningLimit: 10000 },
});
`,
    'index.html':
      '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>consumer</title></head><body><div id="root"></div><script type="module" src="/src/main.jsx"></script></body></html>\n',
    'src/pools.js': POOLS,
    'src/cpuPool.js': CPU_POOL,
    'src/aiSdk.js': AI_SDK,
    'src/main.jsx': `import { GhostTextarea, PoolProvider } from '@inkling/react';
import '@inkling/react/styles.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { cpu } from './cpuPool.js';
import { simulated, tryWebLLM } from './pools.js';
import { tryAiSdk } from './aiSdk.js';

tryWebLLM();
tryAiSdk();
createRoot(document.getElementById('root')).render(
  <StrictMode>
    <PoolProvider pool={simulated}>
      <GhostTextarea session="note" aria-label="Note" rows={4} />
    </PoolProvider>
    {location.search === '?cpu' ? (
      <PoolProvider pool={cpu}>
        <GhostTextarea session="cpu-note" aria-label="CPU note" rows={4} />
      </PoolProvider>
    ) : null}
  </StrictMode>,
);
`,
  });
}

/**
 * A Next.js App Router app in `root`. The page is a server component that
 * imports GhostTextarea straight from '@inkling/react': that only builds
 * because the package's components carry "use client".
 */
export function writeNextApp(root: string, tarballs: Record<string, string>): void {
  const pkg = packageJson('inkling-consumer-next', tarballs, {
    scripts: { build: 'next build', start: 'next start' },
    dependencies: { next: '16.4.6' },
  });
  write(root, {
    'package.json': `${JSON.stringify(pkg, null, 2)}\n`,
    'next.config.mjs': 'export default {};\n',
    'app/pools.js': `'use client';\n${POOLS}`,
    'app/Providers.jsx': `'use client';
import { PoolProvider } from '@inkling/react';
import { useEffect } from 'react';
import { simulated, tryWebLLM } from './pools.js';

export function Providers({ children }) {
  useEffect(() => tryWebLLM(), []);
  return <PoolProvider pool={simulated}>{children}</PoolProvider>;
}
`,
    'app/layout.jsx': `import '@inkling/react/styles.css';
import { Providers } from './Providers.jsx';

export const metadata = { title: 'consumer' };

export default function RootLayout({ children }) {
  return (
    <html lang="en">
      <body>
        <Providers>{children}</Providers>
      </body>
    </html>
  );
}
`,
    'app/page.jsx': `import { GhostTextarea } from '@inkling/react';

export default function Page() {
  return (
    <main>
      <h1>Notes</h1>
      <GhostTextarea session="note" aria-label="Note" rows={4} defaultValue="Server-rendered note" />
    </main>
  );
}
`,
  });
}
