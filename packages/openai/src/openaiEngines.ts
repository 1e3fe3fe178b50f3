import { type CreateEngine } from '@inkling/scheduler';
import { globalTimers } from '@inkling/scheduler/engine';
import { Endpoint } from './endpoint.js';
import { RemoteEngine } from './remoteEngine.js';
import { ConnectTimeoutError } from './errors.js';
import { fetchOrUnreachable, unreachable } from './fetchOrUnreachable.js';
import { fetchWithin } from './fetchWithin.js';
import type { RequestHints } from './requestHints.js';
import { type RequestContext, connectTimeout } from './sendRequest.js';
import { resolvePriority } from './serverPriority.js';
import { SessionSlots, discoverSlots } from './sessionSlots.js';
import type { OpenAIEngine, OpenAIEnginesOptions } from './types.js';
import { validateOptions } from './validateOptions.js';

/**
 * The `createEngine` for an `EnginePool` whose engines are an OpenAI-compatible
 * server (vLLM, SGLang, Ollama, llama.cpp's server, OpenAI itself): the same
 * jobs, chunks and hooks as a WebLLM pool, for models a device cannot hold.
 *
 * Each engine streams `/chat/completions` and calls `/embeddings` over
 * `fetch`, runs up to `concurrency` requests at once (the pool gives it that
 * many lanes, under every scheduling rule), and turns cancellation into an
 * aborted request. Building one probes `GET /models`: it fails with
 * `ServerUnreachableError` when nothing answers within `connectTimeoutMs`, and is otherwise instant (a
 * server has no weights to load in the page). Throws `InvalidOptionError` at
 * once on a wrong option.
 *
 * One engine usually suffices: give the pool `size: 1` and the server's
 * batching width as `concurrency`. A second engine adds lanes on the same server.
 *
 * @example
 * const remote = new EnginePool({
 *   createEngine: openaiEngines({ baseURL: 'http://localhost:8000/v1', model: 'Qwen/Qwen2.5-7B-Instruct', concurrency: 8 }),
 *   size: 1,
 * });
 * const { text, usage } = await remote.submit({
 *   task: 'translate-page',
 *   params: { messages: [{ role: 'user', content: 'Translate to French: Hello' }] },
 * });
 */
export function openaiEngines(options: OpenAIEnginesOptions): CreateEngine {
  validateOptions(options);
  const endpoint = new Endpoint(options);
  const context: RequestContext = {
    endpoint,
    timers: options.timers ?? globalTimers,
    now: options.now ?? (() => Date.now()),
    random: options.random ?? (() => Math.random()),
    maxRetries: options.maxRetries ?? 2,
    maxRetryDelayMs: options.maxRetryDelayMs ?? 20_000,
    connectTimeoutMs: options.connectTimeoutMs ?? 30_000,
    stallTimeoutMs: options.stallTimeoutMs ?? 60_000,
    maxEventBytes: options.maxEventBytes ?? 4 * 1024 * 1024,
    maxResponseBytes: options.maxResponseBytes ?? 64 * 1024 * 1024,
    maxResponseMs: options.maxResponseMs ?? 600_000,
    stats: { attempts: 0, retries: 0, busy: 0, surfaced: 0 },
  };
  const priority = resolvePriority(options.priority);
  const concurrency = options.concurrency ?? 8;
  const lanes = concurrency + (options.reserveLane === false ? 1 : 0);
  return async (_index, onProgress, loadOptions?): Promise<OpenAIEngine> => {
    const signal = loadOptions?.signal;
    onProgress({ progress: 0, text: `Connecting to ${endpoint.shown}` });
    await probe(context);
    const { slots } = options;
    const count = slots === 'auto' ? await discoverSlots(context, signal) : slots;
    const hints: RequestHints = {
      priority,
      promptCacheKey: options.sessionAffinity?.promptCacheKey === true,
      affinityHeader: options.sessionAffinity?.header,
      cacheSalt: options.cacheSalt,
      llamaSlots: slots !== undefined,
      slots: count === undefined ? undefined : new SessionSlots(count),
    };
    const pinned = count === undefined ? '' : `, ${count} slots pinned by session`;
    onProgress({ progress: 1, text: `Connected to ${endpoint.shown} (model "${endpoint.model}"${pinned})` });
    // Each engine counts its own requests.
    return new RemoteEngine({ ...context, stats: { attempts: 0, retries: 0, busy: 0, surfaced: 0 } }, { lanes, hints, fim: options.fim });
  };
}

/**
 * Checks that something answers at `baseURL`. Any answer will do, even an
 * error status: a proxy may refuse `/models` to a key that may still chat,
 * and a wrong key or model is reported by the jobs that hit it.
 */
async function probe({ endpoint, timers, connectTimeoutMs }: RequestContext): Promise<void> {
  const send = () =>
    fetchWithin((signal) => endpoint.fetch('/models', { method: 'GET', signal }), {
      timers,
      ms: connectTimeoutMs,
      signal: undefined,
      onTimeout: () => connectTimeout(endpoint, '/models', connectTimeoutMs),
    });
  let response: Response | undefined;
  try {
    response = await fetchOrUnreachable(endpoint, send, '/models');
  } catch (error) {
    // No answer in time when building the engine: as good as nothing there.
    if (error instanceof ConnectTimeoutError) throw unreachable(endpoint, '/models', error);
    throw error;
  }
  await response?.body?.cancel().catch(() => {});
}
