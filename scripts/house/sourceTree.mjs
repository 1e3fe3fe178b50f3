// The packages' source files of a tree, parsed once, and how an import
// specifier in one of them names another (relative `.js` -> `.ts`/`.tsx`, a
// workspace package through its `exports` map's source condition).
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { parseAst } from 'vite';

const SOURCE = /\.(ts|tsx|mts)$/;
const NOT_SOURCE = /\.(test|test-d|stories|bench)\.tsx?$|\.d\.ts$/;

/** Every `packages/<name>/src` file of `root` (tests, declarations and stories left out), relative paths. */
function sourceFiles(root) {
  const files = [];
  const walk = (dir) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (SOURCE.test(name) && !NOT_SOURCE.test(name)) files.push(relative(root, path));
    }
  };
  for (const pkg of readdirSync(join(root, 'packages'))) {
    if (existsSync(join(root, 'packages', pkg, 'src'))) walk(join(root, 'packages', pkg, 'src'));
  }
  return files.toSorted();
}

/** The workspace packages: name -> { dir, entries: subpath -> source file }. */
function workspacePackages(root) {
  const packages = new Map();
  for (const pkg of readdirSync(join(root, 'packages'))) {
    const file = join(root, 'packages', pkg, 'package.json');
    if (!existsSync(file)) continue;
    const json = JSON.parse(readFileSync(file, 'utf8'));
    const entries = new Map();
    for (const [subpath, target] of Object.entries(json.exports ?? {})) {
      const source = typeof target === 'string' ? target : (target['@inkling/source'] ?? target.import ?? target.default);
      if (typeof source === 'string' && SOURCE.test(source)) entries.set(subpath, join('packages', pkg, source));
    }
    packages.set(json.name, { dir: join('packages', pkg), entries });
  }
  return packages;
}

/**
 * The parsed tree: `files` (relative paths), `ast(file)`, `text(file)`,
 * `resolve(from, specifier)` (a file of the tree, or null for anything
 * outside it), `packages`.
 */
export function sourceTree(root) {
  const files = sourceFiles(root);
  const known = new Set(files);
  const packages = workspacePackages(root);
  const texts = new Map();
  const asts = new Map();
  const text = (file) => {
    if (!texts.has(file)) texts.set(file, readFileSync(join(root, file), 'utf8'));
    return texts.get(file);
  };
  const ast = (file) => {
    if (!asts.has(file)) asts.set(file, parseAst(text(file), { lang: file.endsWith('x') ? 'tsx' : 'ts' }));
    return asts.get(file);
  };
  const resolve = (from, specifier) => {
    if (specifier.startsWith('.')) {
      const base = join(dirname(from), specifier).replace(/\.(m?js|jsx)$/, '');
      for (const candidate of [`${base}.ts`, `${base}.tsx`, `${base}.mts`, join(base, 'index.ts')]) {
        if (known.has(candidate) || existsSync(join(root, candidate))) return candidate;
      }
      return null;
    }
    const match = /^(@[^/]+\/[^/]+|[^@/][^/]*)(\/.*)?$/.exec(specifier);
    const pkg = match && packages.get(match[1]);
    return pkg?.entries.get(`.${match[2] ?? ''}`) ?? null;
  };
  return { root, files, text, ast, resolve, packages };
}

/** Line number (1-based) of a character offset. */
export function lineAt(text, offset) {
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) line += 1;
  return line;
}
