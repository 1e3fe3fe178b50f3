// Size budgets: each entry of .size-limit.json (size-limit's format) is
// bundled the way size-limit's esbuild preset does (ES module, minified, peers
// left out), then measured gzipped. size-limit itself needs Node 22; this runs
// on the Node 20 the project supports.
//   node scripts/size.mjs          check every budget (exit 1 when one is over)
//   node scripts/size.mjs --why    also list the biggest inputs of each bundle
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

const root = resolve(import.meta.dirname, '..');
const why = process.argv.includes('--why');
const checks = JSON.parse(readFileSync(resolve(root, '.size-limit.json'), 'utf8'));

/** `"4 kB"` -> 4000 (size-limit counts a kB as 1000 bytes). */
function bytes(limit) {
  const match = /^([\d.]+)\s*(B|kB)$/.exec(limit);
  if (!match) throw new Error(`.size-limit.json: cannot read the limit "${limit}"; write it like "4 kB".`);
  return Number(match[1]) * (match[2] === 'kB' ? 1000 : 1);
}

/** The entry that imports what the check names, from each path. */
function entryFor(check) {
  const paths = [check.path].flat();
  const imports = typeof check.import === 'object' ? check.import : Object.fromEntries(paths.map((p) => [p, check.import]));
  return paths
    .map((path, i) => {
      const names = imports[path] ?? '*';
      const spec = JSON.stringify(resolve(root, path));
      // Every name is used, so nothing it needs is shaken out.
      return names === '*' ? `import * as m${i} from ${spec}; console.log(m${i});` : `import ${names} from ${spec}; console.log(${names});`;
    })
    .join('\n');
}

let over = 0;
for (const check of checks) {
  const result = await build({
    stdin: { contents: entryFor(check), resolveDir: root, loader: 'js' },
    bundle: true,
    write: false,
    minify: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    external: check.ignore ?? [],
    metafile: why,
    logLevel: 'error',
  });
  const code = result.outputFiles[0].contents;
  const gzipped = gzipSync(code, { level: 9 }).length;
  const limit = bytes(check.limit);
  const verdict = gzipped <= limit ? 'ok  ' : 'OVER';
  if (gzipped > limit) over += 1;
  console.log(`${verdict} ${(gzipped / 1000).toFixed(2).padStart(6)} kB of ${check.limit.padEnd(6)} min+gzip  ${check.name}`);
  if (why) {
    const inputs = Object.entries(Object.values(result.metafile.outputs)[0].inputs)
      .map(([file, { bytesInOutput }]) => [file.replace(/^.*?packages\//, ''), bytesInOutput])
      .toSorted((a, b) => b[1] - a[1]);
    for (const [file, minified] of inputs.slice(0, 25)) console.log(`       ${String(minified).padStart(6)} B minified  ${file}`);
  }
}
if (over > 0) {
  console.error(`${over} size budget(s) exceeded: see .size-limit.json, and \`node scripts/size.mjs --why\` for where the bytes go.`);
  process.exit(1);
}
