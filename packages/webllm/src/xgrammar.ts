/**
 * `loadXGrammar`, for an engine worker of your own: pass it to `hostWebLLM`
 * so that JSON-schema jobs run on the lanes, a matcher per row (the default
 * worker, `@inkling/webllm/worker`, does). It imports `@mlc-ai/web-xgrammar`
 * (about 1.1 MB, its wasm inside), so import this module in a worker only,
 * never in the page.
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
