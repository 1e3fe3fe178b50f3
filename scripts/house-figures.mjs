// The house's figures (issue #35), measured afresh from a tree's sources:
// exported names per package entry, the largest files and functions, import
// circles, and the files one keystroke in `GhostTextarea` runs through.
//   node scripts/house-figures.mjs [root] [--json] [--check] [--static]
//   root      the tree to measure (default: this one); another commit's tree
//             needs node_modules for the keystroke (see docs/house.md)
//   --json    one JSON object instead of the text report
//   --check   exit 1 when there is an import circle (type-only ones count)
//   --static  skip the keystroke (it runs the tree's code in a child Node)
import { resolve } from 'node:path';
import { entryExports } from './house/entryExports.mjs';
import { importCircles } from './house/importCircles.mjs';
import { keystroke } from './house/keystroke.mjs';
import { largest } from './house/largest.mjs';
import { sourceTree } from './house/sourceTree.mjs';

const args = process.argv.slice(2);
const flags = new Set(args.filter((arg) => arg.startsWith('--')));
for (const flag of flags) {
  if (!['--json', '--check', '--static'].includes(flag))
    throw new Error(`house-figures: unknown flag ${flag}; use --json, --check or --static.`);
}
const root = resolve(args.find((arg) => !arg.startsWith('--')) ?? resolve(import.meta.dirname, '..'));

const tree = sourceTree(root);
const figures = {
  root,
  entries: entryExports(tree),
  largest: largest(tree),
  imports: importCircles(tree),
  keystroke: flags.has('--static') || flags.has('--check') ? null : keystroke(root),
};

/** `packages/react/src/ghost/core/x.ts` -> `react/ghost/core`. */
const folderOf = (file) =>
  file
    .replace(/^packages\//, '')
    .replace('/src', '')
    .replace(/\/[^/]+$/, '');

function report() {
  const lines = [`House figures of ${root}`, '', 'Exported names per entry (values + types):'];
  for (const { entry, values, types } of figures.entries)
    lines.push(`  ${entry.padEnd(32)} ${String(values).padStart(4)} values ${String(types).padStart(4)} types`);
  const { files, over300, functions } = figures.largest;
  lines.push('', `Largest files (${tree.files.length} source files, ${over300} over 300 lines):`);
  for (const { file, lines: n } of files) lines.push(`  ${String(n).padStart(5)}  ${file}`);
  lines.push('', `Functions over 60 lines (${functions.length}):`);
  for (const fn of functions) lines.push(`  ${String(fn.lines).padStart(5)}  ${fn.file}:${fn.line} ${fn.name}`);
  const { imports, circles } = figures.imports;
  lines.push('', `Import circles over ${imports} imports: ${circles.all.length} in all, ${circles.runtime.length} at run time`);
  for (const circle of circles.all)
    lines.push(`  ${circles.runtime.some((c) => c.includes(circle[0])) ? 'runtime  ' : 'type-only'} ${circle.join(' ')}`);
  if (figures.keystroke) {
    const { kit, engine, libraries } = figures.keystroke;
    const folders = new Map();
    for (const file of kit) folders.set(folderOf(file), (folders.get(folderOf(file)) ?? 0) + 1);
    lines.push(
      '',
      `One keystroke in GhostTextarea, key to painted suggestion (V8 coverage, fake engine): ${kit.length} kit files in ${folders.size} folders, + ${engine.length} of the fake engine, + ${libraries} library files`,
    );
    for (const [folder, count] of folders) lines.push(`  ${String(count).padStart(3)}  ${folder}`);
  }
  return lines.join('\n');
}

console.log(flags.has('--json') ? JSON.stringify(figures, null, 2) : report());
if (flags.has('--check') && figures.imports.circles.all.length > 0) {
  console.error(
    `house-figures: ${figures.imports.circles.all.length} import circle(s); break them (a type both sides name goes in its own file).`,
  );
  process.exit(1);
}
