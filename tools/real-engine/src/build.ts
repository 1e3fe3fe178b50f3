import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Plugin, build } from 'esbuild';

const here = join(import.meta.dirname, '..');

/** esbuild settings shared by every bundle: workspace packages from src, WebLLM pinned to 0.2.79. */
export const bundleOptions = {
  bundle: true,
  format: 'esm' as const,
  absWorkingDir: here,
  conditions: ['@inkling/source'],
  // The model libraries at hand were built for WebLLM 0.2.79: see REAL-ENGINE.md.
  alias: { '@mlc-ai/web-llm': 'web-llm-0.2.79' },
  logLevel: 'warning' as const,
  target: 'es2022',
};

/**
 * For a browser bundle: `@mlc-ai/web-xgrammar` (the engine worker's, for
 * JSON-schema jobs on the lanes) reaches Node's `url` and `module` in a branch
 * that runs only in Node; esbuild resolves them anyway, so they stay outside
 * (Vite stubs them by itself).
 */
const browserExternal = ['url', 'module'];

/** Bundles the check page (page + engine worker) into `out`. */
export async function buildPage(out: string): Promise<void> {
  mkdirSync(out, { recursive: true });
  await build({
    ...bundleOptions,
    entryPoints: { main: 'src/page/main.ts', worker: 'src/page/worker.ts' },
    outdir: out,
    platform: 'browser',
    external: browserExternal,
  });
  writeFileSync(
    join(out, 'index.html'),
    '<!doctype html><meta charset="utf-8"><title>Inkling real-engine check</title><link rel="icon" href="data:,"><script type="module" src="/main.js"></script>\n',
  );
}

/**
 * Bundles the Node benchmarks (bench, engine thread, prefix bench) into
 * `out`: files that run with plain `node`. `code`: another checkout whose
 * `@inkling/scheduler` and `@inkling/webllm` sources are bundled instead.
 */
export async function buildNodeBench(out: string, code?: string): Promise<void> {
  mkdirSync(out, { recursive: true });
  await build({
    ...bundleOptions,
    plugins: code === undefined ? [] : [otherCheckout(code)],
    entryPoints: {
      bench: 'src/node/bench.ts',
      engineThread: 'src/node/engineThread.ts',
      prefixBench: 'src/node/prefixBench.ts',
      readbackProbe: 'src/node/readbackProbe.ts',
      lanesBench: 'src/node/lanesBench.ts',
    },
    outdir: out,
    outExtension: { '.js': '.mjs' },
    platform: 'node',
    target: 'node20',
  });
}

/**
 * Resolves `@inkling/scheduler` and `@inkling/webllm`, subpaths included
 * (`@inkling/scheduler/engine`), to `code`'s sources through each package's
 * own `exports` (the `@inkling/source` condition). A plain alias maps only
 * the bare name: a subpath then points inside `index.ts` and fails.
 */
function otherCheckout(code: string): Plugin {
  return {
    name: 'other-checkout',
    setup(bundler) {
      bundler.onResolve({ filter: /^@inkling\/(scheduler|webllm)(\/.*)?$/ }, (args) => {
        const [, name, sub] = /^@inkling\/(scheduler|webllm)(\/.*)?$/.exec(args.path)!;
        const dir = join(code, 'packages', name!);
        const exports = (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { exports: Record<string, unknown> }).exports;
        const entry = exports[`.${sub ?? ''}`] as Record<string, string> | undefined;
        const source = entry?.['@inkling/source'];
        if (!source) return { errors: [{ text: `${args.path} has no @inkling/source export in ${dir}` }] };
        return { path: join(dir, source) };
      });
    },
  };
}

/** Bundles the wllama check page into `out` (wllama starts its own worker from a blob). */
export async function buildWllamaPage(out: string): Promise<void> {
  mkdirSync(out, { recursive: true });
  await build({
    ...bundleOptions,
    entryPoints: { main: 'src/page/wllamaMain.ts' },
    outdir: out,
    platform: 'browser',
    external: browserExternal,
  });
  writeFileSync(
    join(out, 'index.html'),
    '<!doctype html><meta charset="utf-8"><title>Inkling real-engine check (wllama)</title><link rel="icon" href="data:,"><script type="module" src="/main.js"></script>\n',
  );
}

/** Bundles the shared-worker check into `out`: a client page and the SharedWorker hosting the pool (WebLLM in its thread). */
export async function buildSharedWorkerPage(out: string): Promise<void> {
  mkdirSync(out, { recursive: true });
  await build({
    ...bundleOptions,
    entryPoints: { client: 'src/page/sharedClient.ts', sharedHost: 'src/page/sharedHost.ts' },
    outdir: out,
    platform: 'browser',
    external: browserExternal,
  });
  writeFileSync(
    join(out, 'index.html'),
    '<!doctype html><meta charset="utf-8"><title>Inkling real-engine check (shared worker)</title><link rel="icon" href="data:,"><script type="module" src="/client.js"></script>\n',
  );
}
