/**
 * A WebLLM engine in a Node worker thread, on Dawn's WebGPU (npm `webgpu`'s
 * `dawn.node`): the Node counterpart of `@inkling/webllm/worker`. It installs
 * what WebLLM expects of a browser worker (navigator.gpu, the Cache API,
 * postMessage), then serves the engine over Inkling's protocol
 * (`hostWebLLM`), or with `protocol: 'webllm'` WebLLM's own handler (the raw
 * engine the bench compares against); `'webllm-reuse'` is that handler with
 * the kit's engine hooks on its engine (prefix reuse and the one-pass greedy
 * pick, installed after each load, armed before each request, as `hostWebLLM`
 * does): the raw baseline of ghost text, so the kit's page↔worker path is
 * what the difference measures.
 *
 * workerData: { dawn, origin: the model server, toggles?: Dawn toggles, protocol?: 'webllm' | 'webllm-reuse', lanes?: hostWebLLM's lanes option }
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { HostWebLLMOptions } from '@inkling/webllm';
import { installNodeHost } from './nodeHost.js';

const { dawn, origin, toggles, protocol, lanes } = workerData as {
  dawn: string;
  origin: string;
  toggles?: string[];
  protocol?: 'webllm' | 'webllm-reuse';
  /** hostWebLLM's `lanes` option (a build without it ignores it). */
  lanes?: HostWebLLMOptions['lanes'];
};
const port = parentPort;
if (!port) throw new Error('engineThread runs as a worker thread.');

await installNodeHost({ dawn, origin, toggles });
// The handler answers through the global postMessage, as in a Web Worker.
(globalThis as { postMessage?: (message: unknown) => void }).postMessage = (message) => port.postMessage(message);

const { MLCEngine, WebWorkerMLCEngineHandler, prebuiltAppConfig } = await import('@mlc-ai/web-llm');
if (protocol === 'webllm' || protocol === 'webllm-reuse') {
  const handler = new WebWorkerMLCEngineHandler();
  if (protocol === 'webllm-reuse') {
    const { installPrefixReuse } = await import('../../../../packages/webllm/src/worker/prefixReuse.js');
    const { installGreedyPick } = await import('../../../../packages/webllm/src/worker/greedyPick.js');
    const engine = (handler as unknown as { engine: InstanceType<typeof MLCEngine> }).engine;
    let reuse: ReturnType<typeof installPrefixReuse> | undefined;
    const reload = engine.reload.bind(engine);
    engine.reload = async (model, chatOpts) => {
      await reload(model, chatOpts);
      const id = Array.isArray(model) ? model[0]! : model;
      reuse = installPrefixReuse(engine, id);
      installGreedyPick(engine, id);
    };
    const chatCompletion = engine.chatCompletion.bind(engine);
    engine.chatCompletion = ((request: never) => {
      reuse?.arm();
      return chatCompletion(request);
    }) as typeof engine.chatCompletion;
  }
  port.on('message', (message: unknown) => handler.onmessage(message));
} else {
  const { hostWebLLM } = await import('@inkling/webllm');
  // As the default worker (`@inkling/webllm/worker`) does: JSON-schema jobs on the lanes. This checkout's
  // loader (a relative path, so a --code=<before> bundle builds too; a hostWebLLM without the option ignores it).
  const { loadXGrammar } = await import('../../../../packages/webllm/src/worker/loadXGrammar.js');
  hostWebLLM(
    {
      // oxlint-disable-next-line unicorn/require-post-message-target-origin
      postMessage: (message) => port.postMessage(message),
      addEventListener: (_type, listener) => port.on('message', (data: unknown) => listener(new MessageEvent('message', { data }))),
    },
    { MLCEngine, prebuiltAppConfig },
    { xgrammar: loadXGrammar, ...(lanes ? { lanes } : {}) } as never,
  );
}
