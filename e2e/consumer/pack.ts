import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PACKAGES } from './packages.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/**
 * Builds and packs every package with `pnpm pack` (which writes
 * `workspace:^` as a caret range) into `folder`; returns each package's
 * tarball by its npm name.
 */
export function packPackages(folder: string): Record<string, string> {
  const tarballs: Record<string, string> = {};
  for (const name of PACKAGES) {
    const dir = join(ROOT, 'packages', name);
    pnpm(dir, ['run', 'build']);
    pnpm(dir, ['pack', '--pack-destination', folder]);
    const file = readdirSync(folder).find((f) => f.startsWith(`inkling-${name}-`) && f.endsWith('.tgz'));
    if (!file) throw new Error(`pnpm pack left no tarball for @inkling/${name} in ${folder}`);
    tarballs[`@inkling/${name}`] = join(folder, file);
  }
  return tarballs;
}

/**
 * Runs the pnpm that runs this script (`npm_execpath`: a native binary from
 * pnpm 12 on, a script before), else the project's pinned pnpm through npx.
 */
function pnpm(cwd: string, args: string[]): void {
  const own = process.env.npm_execpath;
  const [file, head]: [string, string[]] =
    !own || !/pnpm/.test(own) ? ['npx', ['-y', 'pnpm@12.4.2']] : /\.[cm]?js$/.test(own) ? [process.execPath, [own]] : [own, []];
  execFileSync(file, [...head, ...args], { cwd, stdio: ['ignore', 'ignore', 'inherit'] });
}
