/**
 * A WebLLM engine in a Node worker thread, on Dawn's WebGPU (npm `webgpu`'s
 * `dawn.node`): the Node counterpart of `@inkling/webllm/worker`. It installs
 * what WebLLM expects of a browser worker (navigator.gpu, the Cache API,
 * postMessage), then serves the engine over Inkling's protocol
 * (`hostWebLLM`), or with `protocol: 'webllm'` WebLLM's own handler (the raw
 * engine the bench compares against).
 *
 * workerData: { dawn: path of dawn.node, origin: the model server, toggles?: Dawn toggles, protocol?: 'webllm' }
 */
import { createRequire } from 'node:module';
import { parentPort, workerData } from 'node:worker_threads';
import { installCachePolyfill } from './cachePolyfill.js';

const { dawn, origin, toggles, protocol } = workerData as { dawn: string; origin: string; toggles?: string[]; protocol?: 'webllm' };
const port = parentPort;
if (!port) throw new Error('engineThread runs as a worker thread.');

const { create, globals } = createRequire(import.meta.url)(dawn) as {
  create: (flags: string[]) => unknown;
  globals: Record<string, unknown>;
};
Object.assign(globalThis, globals);
Object.defineProperty(globalThis, 'navigator', {
  value: { gpu: create(toggles ?? []), userAgent: 'node', languages: ['en-US'] },
  configurable: true,
});
Object.defineProperty(globalThis, 'location', { value: new URL(origin), configurable: true });
installCachePolyfill();
// Node's fetch loads lazily and reads process.versions.node when it does:
// load it now, before that is hidden below.
await fetch(origin).then((response) => response.arrayBuffer(), () => undefined);
// WebLLM's wasm glue would take Node for a browser-less host and reach for fs.
Object.defineProperty(process.versions, 'node', { value: undefined, configurable: true });
// The handler answers through the global postMessage, as in a Web Worker.
(globalThis as { postMessage?: (message: unknown) => void }).postMessage = (message) => port.postMessage(message);

const { MLCEngine, WebWorkerMLCEngineHandler, prebuiltAppConfig } = await import('@mlc-ai/web-llm');
if (protocol === 'webllm') {
  const handler = new WebWorkerMLCEngineHandler();
  port.on('message', (message: unknown) => handler.onmessage(message));
} else {
  const { hostWebLLM } = await import('@inkling/webllm');
  hostWebLLM(
    {
      // oxlint-disable-next-line unicorn/require-post-message-target-origin
      postMessage: (message) => port.postMessage(message),
      addEventListener: (_type, listener) => port.on('message', (data: unknown) => listener(new MessageEvent('message', { data }))),
    },
    { MLCEngine, prebuiltAppConfig },
  );
}
