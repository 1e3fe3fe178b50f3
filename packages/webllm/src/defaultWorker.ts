import { InvalidOptionError } from '@inkling/scheduler';
import type { WorkerLike } from './types.js';

/**
 * Starts a module worker running `@inkling/webllm/worker`. Bundlers (Vite,
 * webpack 5, Rollup with a worker plugin) recognise this `new Worker(new URL(...))`
 * form and emit the worker as its own chunk.
 *
 * @example
 * webllmEngines({ model, worker: createDefaultWorker }); // what happens without `worker`
 */
export function createDefaultWorker(): WorkerLike {
  const WorkerClass = (globalThis as { Worker?: new (url: URL, options?: { type?: 'module' }) => WorkerLike }).Worker;
  if (!WorkerClass) {
    throw new InvalidOptionError(
      'Web Workers are not available here. Pass webllmEngines() a `worker` option that builds one for this environment (in Node, a worker thread).',
    );
  }
  return new WorkerClass(new URL('./worker.js', import.meta.url), { type: 'module' });
}
