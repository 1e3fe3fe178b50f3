/**
 * Bundles the Node benchmark into a folder (default .real-engine/node):
 * bench.mjs and engineThread.mjs, which run with a plain `node` and no
 * node_modules, as on a GPU machine (see device/h200.sh).
 */
import { join, resolve } from 'node:path';
import { buildNodeBench } from '../build.js';

const out = process.argv[2]
  ? resolve(process.env.INIT_CWD ?? process.cwd(), process.argv[2])
  : join(import.meta.dirname, '../../../../.real-engine/node');
await buildNodeBench(out);
console.log(`bundled the Node benchmark into ${out}`);
