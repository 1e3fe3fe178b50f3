import { cpSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const here = (file: string) => fileURLToPath(new URL(file, import.meta.url));

/**
 * Builds the test extension into `outDir`: a Manifest V3 extension whose
 * service worker, offscreen document and content script are esbuild bundles
 * of the package's extension entry (from its sources), as an app would
 * bundle them. `offscreen` picks the document's script: fake engines, or
 * wllama (its wasm copied beside it).
 */
export async function buildExtension(outDir: string, offscreen: 'offscreen.ts' | 'offscreenWllama.ts'): Promise<void> {
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  await build({
    entryPoints: {
      background: here('./background.ts'),
      offscreen: here(`./${offscreen}`),
      content: here('./content.ts'),
      popup: here('./popup.ts'),
    },
    outdir: outDir,
    bundle: true,
    format: 'iife',
    target: 'chrome120',
    conditions: ['@inkling/source'],
    logLevel: 'warning',
  });
  writeFileSync(`${outDir}/offscreen.html`, '<!doctype html><meta charset="utf-8"><script type="module" src="offscreen.js"></script>\n');
  writeFileSync(
    `${outDir}/popup.html`,
    '<!doctype html><meta charset="utf-8"><title>Popup</title><script type="module" src="popup.js"></script>\n',
  );
  const manifest = {
    manifest_version: 3,
    name: 'Inkling pool test',
    version: '1.0',
    background: { service_worker: 'background.js', type: 'module' },
    permissions: ['offscreen'],
    action: { default_popup: 'popup.html' },
    content_scripts: [{ matches: ['http://127.0.0.1/*'], js: ['content.js'], run_at: 'document_start' }],
    content_security_policy: { extension_pages: "script-src 'self' 'wasm-unsafe-eval'; object-src 'self'" },
  };
  writeFileSync(`${outDir}/manifest.json`, JSON.stringify(manifest, null, 2));
  if (offscreen === 'offscreenWllama.ts') cpSync(here('../../node_modules/@wllama/wllama/esm/wasm/wllama.wasm'), `${outDir}/wllama.wasm`);
}
