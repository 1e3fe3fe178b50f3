import { InvalidOptionError } from '@inkling/scheduler';

// Imported first by the worker's entry: a page would host the engine on its window, answering
// whatever frame posts to it, and Node has no scope to serve on. Throws before WebLLM loads.
const scope = globalThis as { document?: unknown; addEventListener?: unknown; postMessage?: unknown };
if (scope.document !== undefined || typeof scope.addEventListener !== 'function' || typeof scope.postMessage !== 'function') {
  throw new InvalidOptionError(
    "@inkling/webllm/worker serves an engine on a Web Worker's own scope: import it from a worker's file (new Worker(new URL('./my-engine-worker.ts', import.meta.url), { type: 'module' })), not from the page or a server.",
  );
}
