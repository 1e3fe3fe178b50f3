import { hostWebLLM, type WebLLMAppConfig, type WorkerLike } from '@inkling/webllm';

// WebLLM needs WebGPU, which this Chromium lacks: the engine worker is the real hostWebLLM at the
// far end of a MessageChannel, driving an MLCEngine stand-in that downloads as WebLLM does.
// Used by webllmRoom.test.ts and by the tabs of ../pages/webllm.html.

/** WebLLM's MLCEngine as far as a load goes: it downloads into WebLLM's cache what is not there yet. */
export class DownloadingMLCEngine {
  readonly #appConfig: WebLLMAppConfig;
  chat = { completions: { create: async () => ({}) } };
  embeddings = { create: async () => ({}) };

  constructor(config: { appConfig: WebLLMAppConfig }) {
    this.#appConfig = config.appConfig;
  }

  async reload(id: string): Promise<void> {
    const record = this.#appConfig.model_list.find((r) => r.model_id === id)!;
    const base = `${record.model}/resolve/main/`;
    const cache = await caches.open('webllm/model');
    const manifestUrl = `${base}tensor-cache.json`;
    if (!(await cache.match(manifestUrl))) await cache.put(manifestUrl, await fetch(manifestUrl));
    const { records } = (await (await cache.match(manifestUrl))!.json()) as { records: Array<{ dataPath: string }> };
    for (const { dataPath } of records) {
      const url = base + dataPath;
      if (!(await cache.match(url))) await cache.put(url, await fetch(url));
    }
  }

  interruptGenerate(): void {}
  async unload(): Promise<void> {}
}

/** An engine worker on this page: the real hostWebLLM at the far end of a MessageChannel. */
export function channelWorkers() {
  const made: WorkerLike[] = [];
  const factory = (): WorkerLike => {
    const { port1, port2 } = new MessageChannel();
    let listener: WorkerLike['onmessage'] = null;
    port1.addEventListener('message', (event) => listener?.(event));
    port1.start();
    port2.start();
    hostWebLLM(port2, { MLCEngine: DownloadingMLCEngine as never, prebuiltAppConfig: { model_list: [] } }, { gpu: null });
    const worker: WorkerLike = {
      postMessage: (message) => port1.postMessage(message),
      get onmessage() {
        return listener;
      },
      set onmessage(next) {
        listener = next;
      },
      terminate: () => {
        port1.close();
        port2.close();
      },
    };
    made.push(worker);
    return worker;
  };
  return { factory, made };
}
