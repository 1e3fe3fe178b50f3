import type { ChatCompletionChunk, StreamingChatCompletionRequest } from '@inkling/scheduler';
import { type FakeEngine, type FakeEngineOptions, createFakeEngine } from '@inkling/scheduler/testing';
import type { WorkerLike } from '../src/index.js';

/** A message WebLLM's `WebWorkerMLCEngine` sends its worker (web-llm `src/message.ts`). */
export interface WorkerRequest {
  kind: string;
  uuid: string;
  content: unknown;
}

/** Options of `FakeWorker`: the engine it hosts, and how its load goes. */
export interface FakeWorkerOptions extends FakeEngineOptions {
  /** Progress reports the load sends, as WebLLM words them. Default: a first visit (fetch, load, shaders). */
  loadSteps?: Array<{ text: string; progress: number }>;
  /** Delay before each load step, in ms. Default `1`. */
  stepMs?: number;
  /** Makes `reload` answer `throw` with this string (WebLLM sends `err.toString()`). */
  failLoad?: string;
}

export const FIRST_VISIT_STEPS = [
  { text: 'Start to fetch params', progress: 0 },
  { text: 'Fetching param cache[1/2]: 50MB fetched. 50% completed, 1 secs elapsed.', progress: 0.5 },
  { text: 'Fetching param cache[2/2]: 100MB fetched. 100% completed, 2 secs elapsed.', progress: 1 },
  { text: 'Loading model from cache[1/2]: 50MB loaded. 50% completed, 3 secs elapsed.', progress: 0.5 },
  { text: 'Loading model from cache[2/2]: 100MB loaded. 100% completed, 4 secs elapsed.', progress: 1 },
  { text: 'Loading GPU shader modules[10/20]: 50% completed, 5 secs elapsed.', progress: 0.5 },
  { text: 'Loading GPU shader modules[20/20]: 100% completed, 6 secs elapsed.', progress: 1 },
  { text: 'Finish loading on WebGPU - fake', progress: 1 },
];

/**
 * A Web Worker that speaks WebLLM's worker protocol (web-llm `web_worker.ts`:
 * `WebWorkerMLCEngineHandler`) over a fake engine from
 * `@inkling/scheduler/testing`, which behaves like WebLLM's (FIFO lock,
 * interrupt flag, 0.2.79 or 0.2.86). Answers are asynchronous, as a worker's are.
 */
export class FakeWorker implements WorkerLike {
  onmessage: ((event: MessageEvent) => unknown) | null = null;
  readonly received: WorkerRequest[] = [];
  engine: FakeEngine | undefined;
  terminated = false;
  /** Interrupts that reached the engine while no generation held its lock. */
  idleInterrupts = 0;
  readonly #options: FakeWorkerOptions;
  readonly #listeners = new Map<string, Array<(event: Event) => void>>();
  readonly #streams = new Map<string, AsyncIterator<ChatCompletionChunk>>();
  #silent = false;
  #deviceLost = false;
  #unloadedDuringLoad = false;
  #loading = false;

  constructor(options: FakeWorkerOptions = {}) {
    this.#options = options;
  }

  postMessage(message: unknown): void {
    const request = message as WorkerRequest;
    this.received.push(request);
    setTimeout(() => void this.#handle(request), 0);
  }

  terminate(): void {
    this.terminated = true;
    this.#silent = true;
    void this.engine?.unload?.();
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

  /** The GPU device is lost: every later call fails as WebLLM's does. */
  loseDevice(): void {
    this.#deviceLost = true;
  }

  /** Requests received of one kind. */
  kinds(kind: string): WorkerRequest[] {
    return this.received.filter((r) => r.kind === kind);
  }

  async #handle(request: WorkerRequest): Promise<void> {
    if (this.#silent) return;
    const { kind, uuid, content } = request;
    try {
      if (kind === 'setAppConfig' || kind === 'setLogLevel' || kind === 'customRequest') return;
      if (this.#deviceLost && kind !== 'unload') {
        throw 'DeviceLostError: The WebGPU device was lost while loading the model.';
      }
      switch (kind) {
        case 'reload':
          return this.#answer(uuid, await this.#reload());
        case 'unload':
          if (this.#loading) this.#unloadedDuringLoad = true;
          await this.engine?.unload?.();
          this.engine = undefined;
          this.#streams.clear();
          return this.#answer(uuid, null);
        case 'interruptGenerate':
          if (this.engine && !this.engine.generating) this.idleInterrupts += 1;
          this.engine?.interruptGenerate();
          return this.#answer(uuid, null);
        case 'chatCompletionStreamInit': {
          const { request: params } = content as { request: StreamingChatCompletionRequest };
          const stream = await this.#loaded().chat.completions.create(params);
          this.#streams.set(streamKey(content), stream[Symbol.asyncIterator]());
          return this.#answer(uuid, null);
        }
        case 'completionStreamNextChunk': {
          const iterator = this.#streams.get(streamKey(content));
          if (!iterator) throw 'Error: InternalError: Chunk generator in worker should be instantiated by now.';
          const step = await iterator.next();
          if (step.done) this.#streams.delete(streamKey(content));
          return this.#answer(uuid, step.done ? undefined : step.value);
        }
        case 'completionStreamReturn': {
          // 0.2.86 on: the client left the stream; the engine releases its lock.
          const iterator = this.#streams.get(streamKey(content));
          this.#streams.delete(streamKey(content));
          await iterator?.return?.();
          return this.#answer(uuid, null);
        }
        case 'embedding': {
          const { request: params } = content as { request: { input: string | string[] } };
          const embeddings = this.#loaded().embeddings;
          if (!embeddings) throw 'Error: This model cannot embed.';
          return this.#answer(uuid, await embeddings.create(params));
        }
        default:
          throw `UnknownMessageKindError: ${kind}`;
      }
    } catch (error) {
      this.#send({ kind: 'throw', uuid, content: typeof error === 'string' ? error : String(error) });
    }
  }

  async #reload(): Promise<null> {
    if (this.#options.failLoad) throw this.#options.failLoad;
    this.#loading = true;
    this.#unloadedDuringLoad = false;
    try {
      for (const step of this.#options.loadSteps ?? FIRST_VISIT_STEPS) {
        await new Promise((resolve) => setTimeout(resolve, this.#options.stepMs ?? 1));
        // Like WebLLM: unload() during reload aborts it, and reload resolves anyway.
        if (this.#unloadedDuringLoad || this.#silent) return null;
        this.#send({ kind: 'initProgressCallback', uuid: '', content: { ...step, timeElapsed: 0 } });
      }
      this.engine = createFakeEngine(this.#options);
      return null;
    } finally {
      this.#loading = false;
    }
  }

  #loaded(): FakeEngine {
    if (!this.engine) throw 'ModelNotLoadedError: Model not loaded before trying to complete ChatCompletionRequest.';
    return this.engine;
  }

  #answer(uuid: string, content: unknown): void {
    this.#send({ kind: 'return', uuid, content });
  }

  #send(data: { kind: string; uuid: string; content: unknown }): void {
    if (this.#silent) return;
    this.onmessage?.(new MessageEvent('message', { data }));
  }
}

/**
 * Which stream a message is about: a per-request `streamId` from 0.2.86 on,
 * the model id before (one stream per model at a time).
 */
function streamKey(content: unknown): string {
  const { streamId, selectedModelId } = content as { streamId?: string; selectedModelId?: string };
  return streamId ?? selectedModelId ?? '';
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
