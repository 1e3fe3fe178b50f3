import type { FakeEngine } from '@inkling/scheduler/testing';
import { type GPULike, type HostWebLLMOptions, type PageMessage, type WorkerLike, hostWebLLM } from '../src/index.js';
import { type FakeMLCEngine, type FakeWebLLMOptions, fakeWebLLMModule } from './fakeWebLLM.js';

/** A fake WebLLM, and the WebGPU the worker sees (default: none, as in Node). */
export interface FakeWorkerOptions extends FakeWebLLMOptions {
  gpu?: GPULike | null;
  /** The worker's xgrammar (default: none, as `import()` of the package fails in Node). */
  xgrammar?: HostWebLLMOptions['xgrammar'];
  /** The worker's lane settings (hostWebLLM's `lanes`). */
  lanes?: HostWebLLMOptions['lanes'];
}

/**
 * An engine worker in memory: the page's end is a `WorkerLike`, the worker's
 * end runs the real `hostWebLLM` over a fake WebLLM. Messages cross
 * asynchronously and through `structuredClone`, as they do between threads.
 */
export class FakeWorker implements WorkerLike {
  onmessage: ((event: MessageEvent) => unknown) | null = null;
  /** What the page sent, in order. */
  readonly received: PageMessage[] = [];
  terminated = false;
  readonly webllm: ReturnType<typeof fakeWebLLMModule>;
  readonly #listeners = new Map<string, Array<(event: Event) => void>>();
  readonly #inside: Array<(event: MessageEvent) => void> = [];
  #silent = false;

  constructor(options: FakeWorkerOptions = {}) {
    this.webllm = fakeWebLLMModule(options);
    hostWebLLM(
      {
        postMessage: (message) => this.#deliver(() => this.onmessage?.(new MessageEvent('message', { data: structuredClone(message) }))),
        addEventListener: (_type, listener) => this.#inside.push(listener),
      },
      this.webllm,
      { gpu: options.gpu, xgrammar: options.xgrammar ?? null, ...(options.lanes ? { lanes: options.lanes } : {}) },
    );
  }

  /** The WebLLM engine inside, once a load started. */
  get mlc(): FakeMLCEngine | undefined {
    return this.webllm.engines[0];
  }

  /** The fake engine that generates, while a model is loaded. */
  get engine(): FakeEngine | undefined {
    return this.mlc?.engine;
  }

  postMessage(message: unknown): void {
    this.received.push(message as PageMessage);
    const data = structuredClone(message);
    this.#deliver(() => {
      for (const listener of this.#inside) listener(new MessageEvent('message', { data }));
    });
  }

  terminate(): void {
    this.terminated = true;
    this.#silent = true;
    void this.mlc?.unload();
  }

  addEventListener(type: 'error' | 'messageerror', listener: (event: Event) => void): void {
    this.#listeners.set(type, [...(this.#listeners.get(type) ?? []), listener]);
  }

  /** The worker dies: it fires `error` and never answers again. */
  crash(message = 'Uncaught RuntimeError: unreachable'): void {
    this.#silent = true;
    const event = Object.assign(new Event('error'), { message });
    for (const listener of this.#listeners.get('error') ?? []) listener(event);
  }

  /** Messages the page sent of one kind: `hello`, a call's `op`, or a stream control's `t`. */
  kinds(kind: string): PageMessage[] {
    return this.received.filter((m) => messageKind(m) === kind);
  }

  #deliver(run: () => void): void {
    setTimeout(() => {
      if (!this.#silent) run();
    }, 0);
  }
}

/** A worker factory that remembers the workers it made. */
export function fakeWorkers(options: FakeWorkerOptions = {}) {
  const workers: FakeWorker[] = [];
  const factory = () => {
    const worker = new FakeWorker(options);
    workers.push(worker);
    return worker;
  };
  return Object.assign(factory, { workers });
}

/** What a page message is: `hello`, a call's `op` (`load`, `chat`...), or a stream control (`pull`, `close`...). */
export function messageKind(message: PageMessage): string {
  if ('type' in message) return message.type;
  return message.t === 'call' ? message.op : message.t;
}
