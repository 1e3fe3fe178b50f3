// Marks a built package's React modules as client modules for React Server
// Components (Next.js App Router): every module under the folder given that
// imports React, or is named as a hook (useX.js) or a component (X.js), gets
// the "use client" directive. A server component can then
// import GhostTextarea and the hooks from the package entry, whose own code
// (EnginePool, prompts, keys) stays usable on the server. Run after tsc
// (`node ../../scripts/use-client.mjs dist`); each source map gets an empty
// first line so it still points at the right places.
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const DIRECTIVE = "'use client';\n";
const IMPORTS_REACT = /^import\s[^;]*?from\s+['"]react(?:\/jsx-runtime)?['"]/m;
const HOOK_OR_COMPONENT = /^(use[A-Z]|[A-Z])\w*\.js$/;

const folder = process.argv[2];
if (!folder) {
  console.error('usage: node scripts/use-client.mjs <dist folder>');
  process.exit(1);
}

const marked = [];
for (const entry of readdirSync(folder, { recursive: true, withFileTypes: true })) {
  if (!entry.isFile() || !entry.name.endsWith('.js')) continue;
  const file = join(entry.parentPath, entry.name);
  const code = readFileSync(file, 'utf8');
  const client = IMPORTS_REACT.test(code) || HOOK_OR_COMPONENT.test(entry.name);
  if (!client || code.startsWith(DIRECTIVE)) continue;
  writeFileSync(file, DIRECTIVE + code);
  try {
    const map = JSON.parse(readFileSync(`${file}.map`, 'utf8'));
    map.mappings = `;${map.mappings}`;
    writeFileSync(`${file}.map`, JSON.stringify(map));
  } catch {
    // No source map beside it: nothing to shift.
  }
  marked.push(file);
}
console.log(`use-client: ${marked.length} modules in ${folder} marked "use client"`);
