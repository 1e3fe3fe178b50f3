import { EnginePool, InklingError, InvalidOptionError } from '@inkling/scheduler';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PROTOCOL } from '../src/protocol.js';
import { type HostWebLLMOptions, ModelUnreadableError, type WorkerLike, hostWebLLM, webllmEngines } from '../src/index.js';
import { appConfig, fakeGpu } from './helpers.js';

/** A worker in memory whose inside runs `hostWebLLM` over the real `@mlc-ai/web-llm`. */
async function realWebLLMWorker(): Promise<WorkerLike & { sent: unknown[] }> {
  const { MLCEngine, prebuiltAppConfig } = await import('@mlc-ai/web-llm');
  const inside: Array<(event: MessageEvent) => void> = [];
  const worker = {
    sent: [] as unknown[],
    onmessage: null as ((event: MessageEvent) => unknown) | null,
    postMessage(message: unknown) {
      worker.sent.push(message);
      setTimeout(() => inside.forEach((listener) => listener(new MessageEvent('message', { data: structuredClone(message) }))));
    },
    terminate() {},
  };
  hostWebLLM(
    {
      postMessage: (message) => setTimeout(() => worker.onmessage?.(new MessageEvent('message', { data: structuredClone(message) }))),
      addEventListener: (_type, listener) => inside.push(listener),
    },
    { MLCEngine, prebuiltAppConfig },
    { gpu: fakeGpu() }, // Node has no WebGPU: the worker's check passes, WebLLM's load gets as far as it can
  );
  return worker;
}

describe('hostWebLLM', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it("drives the real WebLLM 0.2.86 MLCEngine: the handshake answers, and a load that cannot happen here fails with WebLLM's reason, typed", async () => {
    vi.stubGlobal('location', new URL('http://127.0.0.1:9/')); // WebLLM reads the page's origin
    const worker = await realWebLLMWorker();
    // Nothing listens on port 9 of 127.0.0.1, and Node has no Cache API nor WebGPU: WebLLM itself must refuse.
    const local = {
      model_list: appConfig.model_list.map((r) => ({
        ...r,
        model: r.model.replace(':8000', ':9'),
        model_lib: r.model_lib.replace(':8000', ':9'),
      })),
    };
    const createEngine = webllmEngines({ model: 'Tiny-q4f32_1', appConfig: local, worker: () => worker, gpu: fakeGpu() });
    const error = await new EnginePool({ createEngine }).load().catch((e: unknown) => e);
    expect(worker.sent[0]).toMatchObject({ type: 'hello', protocol: PROTOCOL });
    expect(worker.sent[1]).toMatchObject({ t: 'call', op: 'load', input: { model: 'Tiny-q4f32_1' } });
    expect(error).toBeInstanceOf(InklingError);
    // WebLLM's reload got as far as its weight cache, which Node lacks (the Cache API).
    expect(error).toBeInstanceOf(ModelUnreadableError);
    expect(((error as ModelUnreadableError).cause as Error).message).toMatch(/caches is not defined/);
  });

  it('refuses an unknown or wrong option with a sentence that names it, before it listens', () => {
    const endpoint = { postMessage: () => undefined, addEventListener: vi.fn() };
    const webllm = { MLCEngine: vi.fn(), prebuiltAppConfig: { model_list: [] } } as never;
    const host = (options: unknown) => () => hostWebLLM(endpoint, webllm, options as never);
    expect(host({ lane: { pick: 'gpu' } })).toThrow(
      'hostWebLLM() has no option "lane" (did you mean "lanes"?): remove or rename it. Its options: gpu, xgrammar, lanes.',
    );
    expect(host({ lanes: { pik: 'gpu' } })).toThrow('hostWebLLM() "lanes" has no option "pik" (did you mean "pick"?)');
    expect(host({ lanes: { pick: 'tpu' } })).toThrow(InvalidOptionError);
    expect(host({ lanes: { pick: 'tpu' } })).toThrow(/"lanes.pick" must be "gpu" or "cpu"/);
    expect(host({ lanes: { share: 'yes' } })).toThrow(/"lanes.share" must be true or false/);
    expect(host({ xgrammar: '@mlc-ai/web-xgrammar' })).toThrow(/"xgrammar" must be a function that imports xgrammar/);
    expect(endpoint.addEventListener).not.toHaveBeenCalled();
    // Every documented option passes; a key set to undefined passes (a spread of options).
    const all: Required<HostWebLLMOptions> = { gpu: null, xgrammar: null, lanes: { pick: 'gpu', share: true } };
    expect(host(all)).not.toThrow();
    expect(host({ lanes: { pick: undefined }, gpu: undefined })).not.toThrow();
  });

  it('refuses a worker that speaks another version of the protocol, before any model loads', async () => {
    const sent: Array<{ type?: string; op?: string; id: number }> = [];
    const worker: WorkerLike = {
      onmessage: null,
      postMessage(message) {
        const { type, op, id } = message as { type?: string; op?: string; id: number };
        sent.push({ type, op, id });
        setTimeout(() => worker.onmessage?.(new MessageEvent('message', { data: { type: 'hello', id, protocol: 'inkling-webllm/0' } })));
      },
      terminate() {},
    };
    const createEngine = webllmEngines({ model: 'Tiny-q4f32_1', appConfig, worker: () => worker, gpu: fakeGpu() });
    const error = await new EnginePool({ createEngine }).load().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidOptionError);
    expect((error as Error).message).toContain('inkling-webllm/0');
    expect(sent.map((m) => m.type ?? m.op)).not.toContain('load');
  });
});
