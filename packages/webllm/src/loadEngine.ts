import type { LoadProgress } from '@inkling/scheduler';
import { classifyLoadError } from './classifyError.js';
import { LoadCancelledError } from './errors.js';
import type { LoadAnswer } from './protocol.js';
import { ProgressMapper } from './progressMapper.js';
import type { CacheBackend, WebLLMAppConfig, WebLLMModelRecord, WorkerLike } from './types.js';
import { WebLLMEngine, shutDown } from './webllmEngine.js';
import { WorkerClient } from './workerClient.js';

/** Everything `loadEngine` needs, resolved by `webllmEngines`. */
export interface LoadEngineRequest {
  model: string;
  /** The model's record where the page knows it (an `appConfig` given, or the catalogue); for error messages. */
  record: WebLLMModelRecord | undefined;
  /** `undefined`: the worker uses WebLLM's `prebuiltAppConfig`. */
  appConfig: WebLLMAppConfig | undefined;
  cache: CacheBackend | undefined;
  engineConfig: Record<string, unknown>;
  chatOptions: Record<string, unknown> | undefined;
  worker: WorkerLike;
  onProgress: (report: LoadProgress) => void;
  signal: AbortSignal | undefined;
}

/**
 * Loads the model into the WebLLM engine living in `worker`, and resolves
 * with it as the pool's `Engine`. When `signal` aborts, the load stops: the
 * worker is told to unload (which cancels WebLLM's downloads), then
 * terminated, and this rejects with `LoadCancelledError`. WebLLM resolves a
 * reload cut short by `unload()` as if it had succeeded, so the signal is
 * checked again after the load resolves; an engine is only handed over if it
 * really loaded.
 *
 * @example
 * const engine = await loadEngine({ model, record, appConfig, cache: undefined, engineConfig: {},
 *   chatOptions: undefined, worker, onProgress, signal });
 */
export async function loadEngine(request: LoadEngineRequest): Promise<WebLLMEngine> {
  const { model, worker, signal } = request;
  const client = new WorkerClient(worker);
  const mapper = new ProgressMapper();
  const onProgress = (report: Parameters<ProgressMapper['map']>[0]) => {
    if (!signal?.aborted) request.onProgress(mapper.map(report));
  };

  let cancel: (() => void) | undefined;
  const cancelled = new Promise<never>((_, reject) => {
    cancel = () => reject(new LoadCancelledError(model, { cause: signal?.reason }));
  });
  cancelled.catch(() => {}); // only ever read through the race below
  const onAbort = () => cancel?.();
  signal?.addEventListener('abort', onAbort, { once: true });
  let answer: LoadAnswer;
  try {
    if (signal?.aborted) onAbort();
    const load = async () => {
      await client.hello();
      return (await client.request(
        { type: 'load', model, appConfig: request.appConfig, cache: request.cache, engineConfig: request.engineConfig, chatOptions: request.chatOptions },
        onProgress,
      )) as LoadAnswer;
    };
    answer = await Promise.race([load(), cancelled]);
    // A reload cut short by unload() resolves without an error.
    if (signal?.aborted) throw new LoadCancelledError(model, { cause: signal.reason });
  } catch (reason) {
    // Not awaited: the caller hears at once; the worker is gone soon after.
    void shutDown(client, worker);
    if (reason instanceof LoadCancelledError) throw reason;
    throw client.watch.death ?? classifyLoadError(reason, model, request.record);
  } finally {
    signal?.removeEventListener('abort', onAbort);
  }
  return new WebLLMEngine(client, worker, { embeddings: answer.embeddings });
}
