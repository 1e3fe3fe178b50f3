import { detectWebGPU, webllmEngines } from '@inkling/webllm';
import { type CheckResult, runChecks } from '../checks.js';
import { CHAT_MODEL, EMBED_MODEL, syntheticAppConfig } from '../setup.js';

declare global {
  interface Window {
    inklingChecks?: { results: CheckResult[]; error?: string };
  }
}

const log = (line: string) => console.log(`[check] ${line}`);
const worker = () => new Worker('/worker.js', { type: 'module' });

async function main(): Promise<CheckResult[]> {
  const params = new URLSearchParams(location.search);
  const withEmbedding = params.get('embedding') === '1';
  const embeddingOnly = params.get('only') === 'embedding';
  const gpu = await detectWebGPU();
  log(
    `WebGPU: ${gpu.supported ? `${gpu.adapter?.vendor} ${gpu.adapter?.architecture} ${gpu.adapter?.description}`.trim() : gpu.reason}; shader-f16 ${gpu.shaderF16}; fallback adapter ${gpu.adapter?.isFallbackAdapter}`,
  );
  const appConfig = syntheticAppConfig(location.origin, withEmbedding);
  // WebLLM itself comes from @inkling/webllm's own dynamic import (mapped to 0.2.79 by the bundler).
  const common = { appConfig, worker, engineConfig: { logLevel: 'WARN' } };
  return runChecks({
    chat: embeddingOnly ? undefined : webllmEngines({ ...common, model: CHAT_MODEL }),
    embed: withEmbedding ? webllmEngines({ ...common, model: EMBED_MODEL }) : undefined,
    log,
  });
}

main().then(
  (results) => (window.inklingChecks = { results }),
  (error: unknown) => (window.inklingChecks = { results: [], error: String(error) }),
);
