/**
 * `pnpm bench:real-engine`: bundles the Node benchmark and runs it here, on
 * Dawn from npm `webgpu` (on a CPU: SwiftShader through Chromium's Vulkan ICD;
 * BENCH_SMOKE=1 keeps it to a few tokens). On a GPU machine, run the bundle
 * (.real-engine/node/bench.mjs) with BENCH_DAWN pointing at dawn.node.
 * `--entry=prefixBench.mjs` runs the prefix-reuse bench instead
 * (`pnpm verify:prefix-reuse` runs its log-probability check alone).
 */
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { buildNodeBench } from '../build.js';

const repo = resolve(import.meta.dirname, '../../../..');
const out = join(repo, '.real-engine', 'node');
await buildNodeBench(out);
const dawn = join(dirname(createRequire(import.meta.url).resolve('webgpu')), 'dist', `${process.platform}-${process.arch}`, 'dawn.node');
const libs = resolve(process.env.INIT_CWD ?? process.cwd(), process.env.INKLING_MODEL_LIBS ?? '.real-engine/libs');
const swiftshader = '/usr/lib/chromium/vk_swiftshader_icd.json';
const entry = process.argv.find((arg) => arg.startsWith('--entry='))?.slice('--entry='.length) ?? 'bench.mjs';
const result = spawnSync(process.execPath, [join(out, entry)], {
  stdio: 'inherit',
  env: {
    BENCH_DAWN: dawn,
    BENCH_LIBS: libs,
    BENCH_MODELS: join(repo, '.real-engine', 'models-random'),
    VK_ICD_FILENAMES: swiftshader,
    LD_LIBRARY_PATH: '/usr/lib/chromium',
    ...process.env,
  },
});
process.exit(result.status ?? 1);
