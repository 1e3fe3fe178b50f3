import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Importer, makeFsImporter } from 'react-docgen';

/** The workspace's `packages/` folder. */
export const PACKAGES = fileURLToPath(new URL('../../packages/', import.meta.url));

/**
 * How react-docgen follows imports: relative ones to the `.ts` sources,
 * `@inkling/*` to the package's `@inkling/source` export. Anything else
 * (React, the DOM) stays a type name. A new one per file read, so that
 * `storybook dev` sees edits to the imported files (each caches what it
 * parsed).
 */
export function workspaceImporter(): Importer {
  return makeFsImporter((specifier, basedir) => {
    const file = specifier.startsWith('.') ? sourceFile(join(basedir, specifier)) : workspaceSource(specifier);
    if (file) return file;
    throw Object.assign(new Error(`[hook-docgen] does not read ${specifier}`), { code: 'MODULE_NOT_FOUND' });
  });
}

/** `./store.js` as the `.ts` (or `.tsx`) file it is built from. */
function sourceFile(path: string): string | undefined {
  const stem = path.replace(/\.(js|ts|tsx)$/, '');
  return [`${stem}.ts`, `${stem}.tsx`].find((file) => existsSync(file));
}

let workspace: Map<string, { folder: string; exports: Record<string, Record<string, string>> }> | undefined;

function workspaceSource(specifier: string): string | undefined {
  workspace ??= new Map(
    readdirSync(PACKAGES)
      .filter((folder) => existsSync(join(PACKAGES, folder, 'package.json')))
      .map((folder) => {
        const manifest = JSON.parse(readFileSync(join(PACKAGES, folder, 'package.json'), 'utf8'));
        return [manifest.name, { folder: join(PACKAGES, folder), exports: manifest.exports ?? {} }];
      }),
  );
  const [scope, name, ...rest] = specifier.split('/');
  const entry = workspace.get(`${scope}/${name}`);
  const source = entry?.exports[['.', ...rest].join('/')]?.['@inkling/source'];
  return entry && source ? join(entry.folder, source) : undefined;
}
