/**
 * `pnpm verify:real-engine [--engine=webllm|wllama]` (or INKLING_ENGINE=...): which real
 * engine to check. `webllm` (the default) runs WebLLM on SwiftShader WebGPU, ~16 s a token on
 * a CPU; `wllama` runs llama.cpp in WebAssembly on tiny generated models, in seconds.
 * `--host=shared-worker` (WebLLM only; slow, opt-in) runs the engine inside a SharedWorker
 * through @inkling/shared-pool, two pages as clients.
 */
/** The engines the check can run. */
export const ENGINES = ['webllm', 'wllama'] as const;

const arg = process.argv.find((a) => a.startsWith('--engine='))?.slice('--engine='.length);
const engine = arg ?? process.env.INKLING_ENGINE ?? 'webllm';
const host = process.argv.find((a) => a.startsWith('--host='))?.slice('--host='.length) ?? 'page';
if (host !== 'page' && !(host === 'shared-worker' && engine === 'webllm')) {
  console.error(`verify:real-engine: --host=${host} is not a check; use --host=shared-worker (WebLLM only) or leave it out.`);
  process.exit(2);
}
if (host === 'shared-worker') await import('./verifySharedWorker.js');
else if (engine === 'wllama') await import('./verifyWllama.js');
else if (engine === 'webllm') await import('./verify.js');
else {
  console.error(
    `verify:real-engine: unknown engine "${engine}"; use --engine=webllm (WebGPU, slow on a CPU) or --engine=wllama (CPU, seconds).`,
  );
  process.exit(2);
}
