import { InvalidOptionError } from '@inkling/scheduler';
import type { WorkerLike } from '../types.js';

/**
 * Starts a module worker running `@inkling/webllm/worker`.
 *
 * The `new Worker(new URL('../worker.js', import.meta.url), { type: 'module' })`
 * below is written out literally on purpose: Vite, webpack 5 and Next.js only
 * bundle a worker (and WebLLM inside it) when they see exactly this shape.
 * Through an alias of `Worker` they take the URL for a plain asset and copy
 * `worker.js` unbundled, still importing `@mlc-ai/web-llm` by its bare name,
 * which no browser can load.
 *
 * `Worker` is only read when this runs, never at import, so server rendering
 * imports the package cleanly; where there is no `Worker` it throws an
 * `InvalidOptionError` that names the fix.
 *
 * @example
 * webllmEngines({ model, worker: createDefaultWorker }); // what happens without `worker`
 */
export function createDefaultWorker(): WorkerLike {
  if (typeof Worker === 'undefined') {
    throw new InvalidOptionError(
      'Web Workers are not available here. Pass webllmEngines() a `worker` option that builds one for this environment (in Node, a worker thread).',
    );
  }
  return new Worker(new URL('../worker.js', import.meta.url), { type: 'module' });
}
