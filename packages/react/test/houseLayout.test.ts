// @vitest-environment node
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// #35 part 5: one folder per feature in react/src, hooks and components beside a framework-free
// `core/`, shared primitives in `base/` underneath. Read from the sources' import lines.
const src = fileURLToPath(new URL('../src', import.meta.url));
const ENTRIES = new Set(['index.ts', 'core.ts']);

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return /\.tsx?$/.test(entry.name) ? [relative(src, path)] : [];
  });
}

/** What a file imports or re-exports (type-only too): packages by name, its own files as paths under src. */
function importsOf(file: string): { packages: string[]; local: string[] } {
  const specs = [...readFileSync(join(src, file), 'utf8').matchAll(/(?:from|import)\s*\(?\s*'([^']+)'/g)].map(([, spec]) => spec!);
  return {
    packages: specs.filter((spec) => !spec.startsWith('.')),
    local: specs.filter((spec) => spec.startsWith('.')).map((spec) => relative(src, resolve(dirname(join(src, file)), spec))),
  };
}

const files = sources(src).filter((file) => !ENTRIES.has(file));
const featureOf = (file: string) => file.split('/')[0]!;
const inCore = (file: string) => file.split('/').includes('core');

describe('react/src is laid out by feature', () => {
  it('has no source file outside a feature folder but the two entries', () => {
    expect(files.filter((file) => !file.includes('/'))).toEqual([]);
    expect(files.every((file) => !file.startsWith('..'))).toBe(true);
  });

  it('keeps every core/ free of React: no react import, no component, no hook', () => {
    const leaks = files.filter(inCore).flatMap((file) => {
      const { packages, local } = importsOf(file);
      return [
        ...packages.filter((name) => /^react(-dom)?(\/|$)/.test(name)),
        ...local.filter((path) => !inCore(path) || /\.tsx$|\.jsx$/.test(path)),
      ].map((spec) => `${file} -> ${spec}`);
    });
    expect(leaks).toEqual([]);
    expect(files.filter((file) => inCore(file) && file.endsWith('.tsx'))).toEqual([]);
  });

  it('builds every feature on base/ alone, but for two components that show another feature', () => {
    const crossings = files.flatMap((file) =>
      importsOf(file)
        .local.filter((path) => featureOf(path) !== featureOf(file) && featureOf(path) !== 'base')
        .map((path) => `${file} -> ${path}`),
    );
    expect(crossings.toSorted()).toEqual([
      // The inspector draws ghost text's figures; `TranslateList` shows the model's load.
      'inspector/GhostFiguresTable.tsx -> ghost/core/ghostFigures.js',
      'inspector/GhostFiguresTable.tsx -> ghost/hooks/useGhostFigures.js',
      'inspector/PoolInspector.tsx -> ghost/core/ghostFigures.js',
      'translate/useTranslateList.ts -> model/useModelLoad.js',
    ]);
  });

  it('keeps base/ underneath: it imports no feature', () => {
    const up = files
      .filter((file) => featureOf(file) === 'base')
      .flatMap((file) =>
        importsOf(file)
          .local.filter((path) => featureOf(path) !== 'base')
          .map((path) => `${file} -> ${path}`),
      );
    expect(up).toEqual([]);
  });
});

// STYLE.md 6 and #35 part 3: a hook is thin (logic that needs no React lives in a core/).
it('keeps every hook of react/src under 60 lines', () => {
  const root = fileURLToPath(new URL('../../..', import.meta.url));
  const out = execFileSync(process.execPath, ['scripts/house-figures.mjs', '--json', '--static'], { cwd: root, encoding: 'utf8' });
  const { largest } = JSON.parse(out) as { largest: { functions: Array<{ file: string; name: string; lines: number }> } };
  const long = largest.functions.filter(({ file, name }) => file.startsWith('packages/react/src/') && /^use[A-Z]/.test(name));
  expect(long.map(({ file, name, lines }) => `${file} ${name} ${lines}`)).toEqual([]);
}, 60_000);
