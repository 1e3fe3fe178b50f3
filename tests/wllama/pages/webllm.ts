import { webllmEngines, webllmModelStorage } from '@inkling/webllm';
import * as webllm from '@mlc-ai/web-llm';
import { channelWorkers } from '../test/webllmStandIn.js';
import type { PageResult } from './load.js';

// A tab loading the WebLLM model `?model=` (its id) from `?url=` through webllmEngines, with the
// origin's real storage, Cache API and Web Locks; the engine worker is the suite's stand-in
// (../test/webllmStandIn.ts). Leaves what happened in `window.inklingResult`.

async function run(): Promise<PageResult> {
  const query = new URL(location.href).searchParams;
  const model = query.get('model') ?? '';
  const url = query.get('url') ?? '';
  const appConfig = { model_list: [{ model_id: model, model: url, model_lib: `${url}/resolve/main/lib.wasm` }] };
  const found = (await webllmModelStorage({ appConfig, webllm: webllm as never }).read()).models.find((m) => m.model === model) ?? null;
  try {
    const engine = await webllmEngines({ model, appConfig, gpu: null, worker: channelWorkers().factory })(0, () => {});
    await engine.unload?.();
    return { ok: true, found };
  } catch (error) {
    const { name, message } = error as Error;
    return { ok: false, found, error: { name, message } };
  }
}

void run().then((result) => {
  (globalThis as { inklingResult?: PageResult }).inklingResult = result;
});
