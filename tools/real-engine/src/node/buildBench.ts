/**
 * Bundles the Node benchmark into a folder (default .real-engine/node):
 * bench.mjs and engineThread.mjs, which run with a plain `node` and no
 * node_modules, as on a GPU machine (see device/h200.sh).
 */
import { join, resolve } from 'node:path';
import { buildNodeBench, buildPrefixBench } from '../build.js';

const folder = process.argv.slice(2).find((arg) => !arg.startsWith('--'));
const out = folder
  ? resolve(process.env.INIT_CWD ?? process.cwd(), folder)
  : join(import.meta.dirname, '../../../../.real-engine/node');
if (process.argv.includes('--prefix')) {
  await buildPrefixBench(out);
  console.log(`bundled the prefix-reuse benchmark (WebLLM with the measurement patch) into ${out}`);
} else {
  await buildNodeBench(out);
  console.log(`bundled the Node benchmark into ${out}`);
}
