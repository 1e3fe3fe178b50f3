// @vitest-environment node
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../..', import.meta.url));

// The whole tree's packages, not only the scheduler: `scripts/house-figures.mjs` reads every
// packages/*/src import (type-only ones too) and lists the files that import each other in a loop.
it('no source file of any package imports itself back through others (type-only imports count)', () => {
  const out = execFileSync(process.execPath, ['scripts/house-figures.mjs', '--json', '--static'], { cwd: root, encoding: 'utf8' });
  const { imports } = JSON.parse(out) as { imports: { files: number; circles: { all: string[][] } } };
  expect(imports.files).toBeGreaterThan(100);
  expect(imports.circles.all).toEqual([]);
}, 60_000);
