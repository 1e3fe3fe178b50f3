// Files one keystroke crosses, measured: keystrokePage.mjs runs in a child
// Node (happy-dom, the tree's own React, its fake engine) and reports every
// script with a function that ran between the key and its painted suggestion.
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const require = createRequire(import.meta.url);

/** `{ kit: [files], engine: [files], libraries }`: source files of the packages that ran (the fake engine's apart), and how many files of node_modules. */
export function keystroke(root) {
  const out = execFileSync(
    process.execPath,
    [
      '--conditions=@inkling/source',
      '--import',
      pathToFileURL(require.resolve('tsx/esm')).href,
      fileURLToPath(new URL('keystrokePage.mjs', import.meta.url)),
      root,
    ],
    {
      env: { ...process.env, TSX_TSCONFIG_PATH: join(root, 'packages/react/tsconfig.json') },
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 60_000,
    },
  );
  const urls = JSON.parse(out);
  const files = urls.filter((url) => url.startsWith('file:')).map((url) => relative(root, fileURLToPath(url)));
  const ours = files.filter((file) => file.startsWith('packages/') && !file.includes('node_modules'));
  return {
    kit: ours.filter((file) => !file.includes('/testing/')).toSorted(),
    engine: ours.filter((file) => file.includes('/testing/')).toSorted(),
    libraries: files.filter((file) => file.includes('node_modules')).length,
  };
}
