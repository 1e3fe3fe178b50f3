/**
 * The entry of an engine's Web Worker: it bundles WebLLM and serves one
 * engine over Inkling's worker protocol (`hostWebLLM`). `webllmEngines`
 * starts it by default; point a worker of your own at this module, or
 * import it from one:
 *
 * @example
 * // my-engine-worker.ts
 * import '@inkling/webllm/worker';
 * // app
 * webllmEngines({ model, worker: () => new Worker(new URL('./my-engine-worker.ts', import.meta.url), { type: 'module' }) });
 */
// oxlint-disable-next-line import/no-unassigned-import -- its side effect is the point: the scope check runs before WebLLM's module does
import './onlyInAWorker.js';
import { MLCEngine, prebuiltAppConfig } from '@mlc-ai/web-llm';
import { hostWebLLM } from './worker/hostWebLLM.js';

// No xgrammar here: its file imports Node's `module`, which Turbopack (Next.js 16) refuses to bundle for a
// browser, and every app bundles this worker. JSON-schema jobs take WebLLM's one-sequence path; a worker of
// one's own opts into them on the lanes with `loadXGrammar` from `@inkling/webllm/xgrammar`.
hostWebLLM(globalThis as unknown as Parameters<typeof hostWebLLM>[0], { MLCEngine, prebuiltAppConfig });
