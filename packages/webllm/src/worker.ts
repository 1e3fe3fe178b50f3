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
import { InvalidOptionError } from '@inkling/scheduler';
import { MLCEngine, prebuiltAppConfig } from '@mlc-ai/web-llm';
import { hostWebLLM } from './worker/hostWebLLM.js';

const scope = globalThis as { document?: unknown; addEventListener?: unknown; postMessage?: unknown };
// A page would host the engine on its window, answering whatever frame posts to it; Node has no scope to serve on.
if (scope.document !== undefined || typeof scope.addEventListener !== 'function' || typeof scope.postMessage !== 'function') {
  throw new InvalidOptionError(
    "@inkling/webllm/worker serves an engine on a Web Worker's own scope: import it from a worker's file (new Worker(new URL('./my-engine-worker.ts', import.meta.url), { type: 'module' })), not from the page or a server.",
  );
}
hostWebLLM(scope as Parameters<typeof hostWebLLM>[0], { MLCEngine, prebuiltAppConfig });
