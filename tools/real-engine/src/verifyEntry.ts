/**
 * `pnpm verify:real-engine [--engine=webllm|wllama]` (or INKLING_ENGINE=...): which real
 * engine to check. `webllm` (the default) runs WebLLM on SwiftShader WebGPU, ~16 s a token on
 * a CPU; `wllama` runs llama.cpp in WebAssembly on tiny generated models, in seconds.
 */
/** The engines the check can run. */
export const ENGINES = ['webllm', 'wllama'] as const;

const arg = process.argv.find((a) => a.startsWith('--engine='))?.slice('--engine='.length);
const engine = arg ?? process.env.INKLING_ENGINE ?? 'webllm';
if (engine === 'wllama') await import('./verifyWllama.js');
else if (engine === 'webllm') await import('./verify.js');
else {
  console.error(`verify:real-engine: unknown engine "${engine}"; use --engine=webllm (WebGPU, slow on a CPU) or --engine=wllama (CPU, seconds).`);
  process.exit(2);
}
