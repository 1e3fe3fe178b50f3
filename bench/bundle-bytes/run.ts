/**
 * `pnpm --filter @inkling/bench bytes`: the JavaScript a page downloads before
 * its first suggestion from a real WebLLM model. A production Vite build of a
 * small app (GhostTextarea, webllmEngines with the default worker); every JS
 * file the build emits is either the engine worker's or the page's (the page
 * loads its lazy chunks when the pool loads, before any suggestion). Prints
 * raw, gzip and brotli bytes per side; writes bench/results/bundle-bytes.json.
 * A measurement of sizes, not of time.
 */
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { build, defaultClientConditions } from 'vite';

const here = dirname(fileURLToPath(import.meta.url));
const outDir = join(here, '../results/bundle-bytes-dist');

await build({
  root: here,
  logLevel: 'warn',
  plugins: [react()],
  resolve: { conditions: ['@inkling/source', ...defaultClientConditions] },
  // WebLLM is 6 MB: the size warning is the point of this measurement, not news.
  build: { outDir, emptyOutDir: true, chunkSizeWarningLimit: 10_000 },
});

interface Side {
  files: string[];
  raw: number;
  gzip: number;
  brotli: number;
}
const empty = (): Side => ({ files: [], raw: 0, gzip: 0, brotli: 0 });
const sides = { page: empty(), worker: empty() };
const assets = join(outDir, 'assets');
for (const name of readdirSync(assets).filter((f) => f.endsWith('.js'))) {
  const bytes = readFileSync(join(assets, name));
  const side = name.startsWith('worker-') ? sides.worker : sides.page;
  side.files.push(name);
  side.raw += bytes.length;
  side.gzip += gzipSync(bytes, { level: 9 }).length;
  side.brotli += brotliCompressSync(bytes).length;
}
const kb = (n: number) => `${(n / 1000).toFixed(1)} kB`;
for (const [name, side] of Object.entries(sides)) {
  console.log(
    `${name.padEnd(7)} ${kb(side.raw).padStart(10)} raw ${kb(side.gzip).padStart(9)} gzip ${kb(side.brotli).padStart(9)} brotli  (${side.files.join(', ')})`,
  );
}
const total = sides.page.brotli + sides.worker.brotli;
console.log(`total   ${kb(total)} brotli before the first suggestion`);
mkdirSync(join(here, '../results'), { recursive: true });
writeFileSync(join(here, '../results/bundle-bytes.json'), `${JSON.stringify(sides, null, 2)}\n`);
