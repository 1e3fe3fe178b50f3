/**
 * Bundles the Node benchmarks into a folder (default .real-engine/node):
 * bench.mjs, engineThread.mjs and prefixBench.mjs, which run with a plain
 * `node` and no node_modules, as on a GPU machine (see device/h200.sh).
 *
 * `--code=<tree>` bundles another checkout's `@inkling/scheduler` and
 * `@inkling/webllm` (their `src/`) under the same harness: how a "before"
 * figure is measured with this bench, e.g. `git worktree add /tmp/before main`.
 */
import { join, resolve } from 'node:path';
import { buildNodeBench } from '../build.js';

const args = process.argv.slice(2);
const folder = args.find((arg) => !arg.startsWith('--'));
const code = args.find((arg) => arg.startsWith('--code='))?.slice('--code='.length);
const base = process.env.INIT_CWD ?? process.cwd();
const out = folder ? resolve(base, folder) : join(import.meta.dirname, '../../../../.real-engine/node');
await buildNodeBench(out, code === undefined ? undefined : resolve(base, code));
console.log(`bundled the Node benchmarks into ${out}${code ? ` (packages from ${code})` : ''}`);
