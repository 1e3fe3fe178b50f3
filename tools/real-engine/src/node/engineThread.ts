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
import { parentPort, workerData } from 'node:worker_threads';
import { installNodeHost } from './nodeHost.js';

const { dawn, origin, toggles, protocol } = workerData as { dawn: string; origin: string; toggles?: string[]; protocol?: 'webllm' };
const port = parentPort;
if (!port) throw new Error('engineThread runs as a worker thread.');

await installNodeHost({ dawn, origin, toggles });
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
