/**
 * `loadXGrammar`, for an engine worker of your own: pass it to `hostWebLLM`
 * so that JSON-schema jobs run on the lanes, a matcher per row (the default
 * worker, `@inkling/webllm/worker`, does not). It imports `@mlc-ai/web-xgrammar`
 * (an optional peer dependency: install `@mlc-ai/web-xgrammar@0.1.27`; about
 * 1.1 MB, its wasm inside), so import this module in a worker only, never in
 * the page. Vite bundles it as it is; Turbopack (Next.js 16) cannot, as its
 * file imports Node's `module`: there, keep the default worker.
 *
 * @example
 * // my-engine-worker.ts
 * import { hostWebLLM } from '@inkling/webllm';
 * import { loadXGrammar } from '@inkling/webllm/xgrammar';
 * import { MLCEngine, prebuiltAppConfig } from '@mlc-ai/web-llm';
 * hostWebLLM(globalThis as never, { MLCEngine, prebuiltAppConfig }, { xgrammar: loadXGrammar });
 */
export { loadXGrammar } from './worker/loadXGrammar.js';
export type { XGrammar } from './worker/laneGrammar.js';
