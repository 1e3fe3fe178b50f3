import { hostWebLLM, type WebLLMEngineModule, type WorkerLike } from '@inkling/webllm';

/**
 * A `WorkerLike` whose WebLLM engine runs in the calling thread: `hostWebLLM`
 * on one end of a `MessageChannel`, `webllmEngines` on the other. For a
 * SharedWorker, where Chromium cannot start a nested Worker; the protocol is
 * the one a real engine worker speaks, so nothing else changes.
 *
 * @example
 * webllmEngines({ model, appConfig, worker: () => inThreadWorker({ MLCEngine, prebuiltAppConfig }) });
 */
export function inThreadWorker(webllm: WebLLMEngineModule): WorkerLike {
  const { port1, port2 } = new MessageChannel();
  hostWebLLM(port2, webllm);
  port2.start();
  return {
    postMessage: (message) => port1.postMessage(message),
    get onmessage() {
      return port1.onmessage;
    },
    set onmessage(listener) {
      // oxlint-disable-next-line unicorn/prefer-add-event-listener -- WorkerLike is driven through onmessage, which also starts the port
      port1.onmessage = listener;
    },
    terminate: () => {
      port1.close();
      port2.close();
    },
  };
}
