import { type LoadProgress, type PoolTimers, WorkerCrashedError } from '@inkling/scheduler';
import { loadCancelled } from '../errors.js';
import { globalTimers } from '@inkling/scheduler/engine';
import type { LoadAnswer, LoadSettings } from '../protocol.js';
import type { WorkerLike } from '../types.js';
import { WebLLMEngine, shutDown } from './webllmEngine.js';
import { WorkerClient } from './workerClient.js';

/**
 * How long a worker may take to answer the handshake. It answers once its
 * script has run, which first downloads WebLLM (about 1.4 MB), so this
 * allows a slow connection.
 */
export const HANDSHAKE_TIMEOUT_MS = 60_000;

/** Everything `loadEngine` needs, resolved by `webllmEngines`: what the worker loads, and the worker. */
export interface LoadEngineRequest extends LoadSettings {
  worker: WorkerLike;
  onProgress: (report: LoadProgress) => void;
  signal: AbortSignal | undefined;
  /** The handshake's and the unload grace's timers. Default: the platform's (`globalTimers`). */
  timers?: PoolTimers;
}

/**
 * Loads the model into the WebLLM engine living in `worker`, and resolves
 * with it as the pool's `Engine`. The worker checks the model and WebGPU,
 * reports progress as one overall fraction and types its errors; this
 * passes them on. A worker that does not answer the handshake within
 * `HANDSHAKE_TIMEOUT_MS` is taken for dead (`WorkerCrashedError`).
 *
 * When `signal` aborts, the load stops: the worker is told to unload (which
 * cancels WebLLM's downloads), then terminated, and this rejects with
 * `LoadCancelledError`. WebLLM resolves a reload cut short by `unload()` as
 * if it had succeeded, so the signal is checked again after the load
 * resolves; an engine is only handed over if it really loaded.
 *
 * @example
 * const engine = await loadEngine({ model, appConfig, cache: undefined, engineConfig: {},
 *   chatOptions: undefined, checkWebGPU: true, worker, onProgress, signal });
 */
export async function loadEngine(request: LoadEngineRequest): Promise<WebLLMEngine> {
  const { worker, onProgress, signal, timers = globalTimers, ...settings } = request;
  const { model } = settings;
  const client = new WorkerClient(worker);
  let cancel: (() => void) | undefined;
  const cancelled = new Promise<never>((_, reject) => {
    cancel = () => reject(loadCancelled(model, signal?.reason));
  });
  cancelled.catch(() => {}); // only ever read through the race below
  const onAbort = () => cancel?.();
  signal?.addEventListener('abort', onAbort, { once: true });
  // A worker whose script never runs ours (a wrong URL, a file the bundler
  // left out, a blocked one) may neither answer nor fail.
  const handshake = timers.setTimeout(() => client.kill(new WorkerCrashedError(silentWorker(), { device: 'gpu' })), HANDSHAKE_TIMEOUT_MS);
  let answer: LoadAnswer;
  try {
    if (signal?.aborted) onAbort();
    const load = async () => {
      await client.hello();
      timers.clearTimeout(handshake);
      return (await client.call('load', settings, (report) => {
        if (!signal?.aborted) onProgress(report);
      })) as LoadAnswer;
    };
    answer = await Promise.race([load(), cancelled]);
    // A reload cut short by unload() resolves without an error.
    if (signal?.aborted) throw loadCancelled(model, signal.reason);
  } catch (reason) {
    // Not awaited: the caller hears at once; the worker is gone soon after.
    void shutDown(client, worker, timers);
    throw reason;
  } finally {
    timers.clearTimeout(handshake);
    signal?.removeEventListener('abort', onAbort);
  }
  return new WebLLMEngine(client, worker, { ...answer, timers });
}

function silentWorker(): string {
  return `The engine's worker did not answer within ${HANDSHAKE_TIMEOUT_MS / 1000} s. Check that its script loads and runs @inkling/webllm/worker: its URL (the \`worker\` option, or how the bundler emitted the default one) and the page's Content-Security-Policy (worker-src).`;
}
