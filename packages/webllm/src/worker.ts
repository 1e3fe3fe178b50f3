/**
 * The entry of an engine's Web Worker: WebLLM's handler, answering the
 * messages of the `WebWorkerMLCEngine` that `webllmEngines` makes. Point a
 * worker of your own at this module, or import it from one:
 *
 * @example
 * // my-engine-worker.ts
 * import '@inkling/webllm/worker';
 * // app
 * webllmEngines({ model, worker: () => new Worker(new URL('./my-engine-worker.ts', import.meta.url), { type: 'module' }) });
 */
import { WebWorkerMLCEngineHandler } from '@mlc-ai/web-llm';

const handler = new WebWorkerMLCEngineHandler();
globalThis.addEventListener('message', (event: MessageEvent) => {
  handler.onmessage(event);
});
