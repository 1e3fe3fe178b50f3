import { EnginePool, InklingError, InvalidOptionError } from '@inkling/scheduler';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PROTOCOL } from '../src/protocol.js';
import { ModelUnreadableError, type WorkerLike, hostWebLLM, webllmEngines } from '../src/index.js';
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
