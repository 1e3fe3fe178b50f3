import type { LoadProgress } from '@inkling/scheduler';
import { classifyLoadError } from './classifyError.js';
import { LoadCancelledError } from './errors.js';
import { ProgressMapper } from './progressMapper.js';
import type { WebLLMAppConfig, WebLLMModelRecord, WebLLMModule, WorkerLike } from './types.js';
import { WebLLMEngine, shutDown } from './webllmEngine.js';
import { WorkerWatch } from './workerWatch.js';

/** Everything `loadEngine` needs, resolved by `webllmEngines`. */
export interface LoadEngineRequest {
  webllm: WebLLMModule;
  model: string;
  record: WebLLMModelRecord;
  appConfig: WebLLMAppConfig;
  engineConfig: Record<string, unknown>;
  chatOptions: Record<string, unknown> | undefined;
  worker: WorkerLike;
  onProgress: (report: LoadProgress) => void;
  signal: AbortSignal | undefined;
}

/**
 * Loads the model into a WebLLM engine living in `worker`, and resolves with
 * it as the pool's `Engine`. When `signal` aborts, the load stops: WebLLM is
 * told to unload (which cancels its downloads), the worker is terminated, and
 * this rejects with `LoadCancelledError`. WebLLM resolves a reload cut short
 * by `unload()` as if it had succeeded, so the signal is checked again after
 * the reload resolves; an engine is only handed over if it really loaded.
 *
 * @example
 * const engine = await loadEngine({ webllm, model, record, appConfig, engineConfig: {},
 *   chatOptions: undefined, worker, onProgress, signal });
 */
export async function loadEngine(request: LoadEngineRequest): Promise<WebLLMEngine> {
  const { webllm, model, record, worker, signal } = request;
  const watch = new WorkerWatch(worker);
  const mapper = new ProgressMapper();
  const inner = new webllm.WebWorkerMLCEngine(worker as never, {
    ...request.engineConfig,
    appConfig: request.appConfig,
    initProgressCallback: (report: Parameters<ProgressMapper['map']>[0]) => {
      if (!signal?.aborted) request.onProgress(mapper.map(report));
    },
  });

  let cancel: (() => void) | undefined;
  const cancelled = new Promise<never>((_, reject) => {
    cancel = () => reject(new LoadCancelledError(model, { cause: signal?.reason }));
  });
  cancelled.catch(() => {}); // only ever read through the race below
  const onAbort = () => cancel?.();
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    if (signal?.aborted) onAbort();
    await Promise.race([watch.race(inner.reload(model, request.chatOptions)), cancelled]);
    // A reload cut short by unload() resolves without an error.
    if (signal?.aborted) throw new LoadCancelledError(model, { cause: signal.reason });
  } catch (reason) {
    // Not awaited: the caller hears at once; the worker is gone soon after.
    void shutDown(inner, worker, watch);
    if (reason instanceof LoadCancelledError) throw reason;
    throw watch.death ?? classifyLoadError(reason, model, record);
  } finally {
    signal?.removeEventListener('abort', onAbort);
  }
  return new WebLLMEngine(inner, worker, watch, { embeddings: record.model_type === 1 });
}
