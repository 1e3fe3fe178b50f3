import { Worker } from 'node:worker_threads';
import type { WorkerLike } from '@inkling/webllm';

/**
 * A `WorkerLike` over a Node worker thread, so `webllmEngines({ worker })`
 * runs each engine on its own thread in Node as it does in a Web Worker in a
 * browser. The thread's death (an error, or an exit not asked for) reaches
 * the engine as an `error` event.
 */
export class NodeWorker implements WorkerLike {
  onmessage: ((event: MessageEvent) => unknown) | null = null;
  readonly #thread: Worker;
  #terminating = false;

  constructor(entry: URL | string, workerData: unknown) {
    this.#thread = new Worker(entry, { workerData });
    this.#thread.on('message', (data: unknown) => this.onmessage?.(new MessageEvent('message', { data })));
  }

  postMessage(message: unknown): void {
    // A worker thread's port, not a window: there is no target origin.
    // oxlint-disable-next-line unicorn/require-post-message-target-origin
    this.#thread.postMessage(message);
  }

  terminate(): Promise<number> {
    this.#terminating = true;
    return this.#thread.terminate();
  }

  addEventListener(type: 'error' | 'messageerror', listener: (event: Event) => void): void {
    const fire = (message: string) => listener(Object.assign(new Event(type), { message }));
    if (type === 'messageerror') {
      this.#thread.on('messageerror', (error) => fire(String(error)));
      return;
    }
    this.#thread.on('error', (error) => fire(error instanceof Error ? error.message : String(error)));
    this.#thread.on('exit', (code) => {
      if (!this.#terminating) fire(`the engine thread exited with code ${code}`);
    });
  }
}
