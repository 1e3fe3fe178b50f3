import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { REGISTRY_DEPENDENCIES } from './packages.js';

/** The app's package.json: the tarballs, the registry packages pinned, one copy of the scheduler. */
function packageJson(name: string, tarballs: Record<string, string>, extra: { dependencies?: object; devDependencies?: object; scripts?: object }) {
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

/** A Vite + React app in `root`. */
export function writeViteApp(root: string, tarballs: Record<string, string>): void {
  const pkg = packageJson('inkling-consumer-vite', tarballs, {
    scripts: { build: 'vite build' },
    devDependencies: { vite: '8.3.8', '@vitejs/plugin-react': '6.3.0' },
  });
  write(root, {
    'package.json': `${JSON.stringify(pkg, null, 2)}\n`,
    'vite.config.js': `import react from '@vitejs/plugin-react';\nimport { defineConfig } from 'vite';\nexport default defineConfig({ plugins: [react()], build: { chunkSizeWarningLimit: 10000 } });\n`,
    'index.html': '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>consumer</title></head><body><div id="root"></div><script type="module" src="/src/main.jsx"></script></body></html>\n',
    'src/pools.js': POOLS,
    'src/main.jsx': `import { GhostTextarea, PoolProvider } from '@inkling/react';
import '@inkling/react/styles.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { simulated, tryWebLLM } from './pools.js';

tryWebLLM();
createRoot(document.getElementById('root')).render(
  <StrictMode>
    <PoolProvider pool={simulated}>
      <GhostTextarea session="note" aria-label="Note" rows={4} />
    </PoolProvider>
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
