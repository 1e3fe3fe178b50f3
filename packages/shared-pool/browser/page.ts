import type { ChatJobSpec, CreateEngine, JobResult } from '@inkling/scheduler';
import { fakeEngines } from '@inkling/scheduler/testing';
import { type Presence, sharedPool } from '../src/index.js';
import { manualPresence } from '../src/testing/index.js';
import { BUILDS_CHANNEL, CRASH_CHANNEL, ENGINE, POOL_NAME } from './scene.js';

// One tab of the browser suite. `?mode=tab` forces the tab-hosted fallback; `?mode=broken` gives a
// SharedWorker whose script does not exist, `?mode=throwing` one whose script throws as it starts, so
// the pool must fall back on its own.
const asked = new URLSearchParams(location.search).get('mode');
const mode = asked === 'tab' ? 'tab' : asked === 'broken' || asked === 'throwing' ? 'auto' : 'shared-worker';
const brokenWorker = () => new SharedWorker('/no-such-pool-host.js', { type: 'module', name: `${POOL_NAME}-broken` });
const throwingWorker = () =>
  new SharedWorker(new URL('./throwingHost.ts', import.meta.url), { type: 'module', name: 'inkling-test-throwing' });
const workers: Record<string, () => SharedWorker> = { broken: brokenWorker, throwing: throwingWorker };
const presence = manualPresence({ visible: true, focused: true });

// Builds anywhere (the worker, another tab) are heard from the time this tab opened; its own are counted apart.
let heardBuilds = 0;
let ownBuilds = 0;
const buildsChannel = new BroadcastChannel(BUILDS_CHANNEL);
buildsChannel.addEventListener('message', () => (heardBuilds += 1));
const engines = fakeEngines(ENGINE);
const createEngine: CreateEngine = (index, onProgress, options) => {
  ownBuilds += 1;
  // oxlint-disable-next-line unicorn/require-post-message-target-origin -- a BroadcastChannel (it does not hear itself)
  buildsChannel.postMessage({ where: 'tab' });
  return engines(index, onProgress, options);
};

const pool = sharedPool({
  name: POOL_NAME,
  mode,
  worker: workers[asked ?? ''] ?? (() => new SharedWorker(new URL('./poolHost.ts', import.meta.url), { type: 'module', name: POOL_NAME })),
  pool: { createEngine, size: 1 },
  presence,
  reconnect: { handshakeTimeoutMs: 1000 },
  view: 'all', // as the worker's: the suite reads every tab's jobs from any tab
});

/** What a test reads of a finished job. */
interface Outcome {
  status: JobResult['status'];
  text: string;
  error: { name: string; retryable: unknown } | null;
  /** From submit to the first chunk, on this page's clock; null without one. */
  firstTokenMs: number | null;
  totalMs: number;
}

const running = new Map<string, Promise<Outcome>>();

function start(key: string, spec: Omit<ChatJobSpec, 'onChunk'>): void {
  const submittedAt = performance.now();
  let firstAt: number | undefined;
  const outcome = pool.submit({ ...spec, onChunk: () => (firstAt ??= performance.now()) }).then((result): Outcome => ({
    status: result.status,
    text: result.text,
    error: result.error ? { name: result.error.name, retryable: (result.error as { retryable?: unknown }).retryable } : null,
    firstTokenMs: firstAt === undefined ? null : firstAt - submittedAt,
    totalMs: performance.now() - submittedAt,
  }));
  running.set(key, outcome);
}

/** The page's test API, driven by playwright's `page.evaluate`. */
const api = {
  mode: () => pool.mode,
  workerError: () => (pool.workerError ? { name: pool.workerError.name, message: pool.workerError.message } : null),
  isHost: () => pool.isHost(),
  builds: () => ({ heard: heardBuilds, own: ownBuilds }),
  clientId: () => pool.clientId,
  load: () => pool.load().then(() => pool.getSnapshot().phase),
  setPresence: (next: Presence) => presence.set(next),
  start,
  outcome: (key: string) => running.get(key) ?? Promise.reject(new Error(`no job "${key}"`)),
  snapshot: () => {
    const status = pool.getSnapshot();
    return {
      phase: status.phase,
      size: status.size,
      jobs: status.jobs.map((j) => ({ id: j.id, owner: j.owner, state: j.state, priority: j.priority, tokens: j.tokens })),
      recent: status.recent.map((r) => ({ id: r.id, owner: r.owner, status: r.status })),
    };
  },
  // oxlint-disable-next-line unicorn/require-post-message-target-origin -- a BroadcastChannel
  crashWorker: () => new BroadcastChannel(CRASH_CHANNEL).postMessage('crash'),
  hostLosses: () => pool.hostLosses,
  /** Runs a translation with a signal made in an iframe (another realm), aborts it after its first chunk. */
  abortFromFrame: async (spec: Omit<ChatJobSpec, 'onChunk' | 'signal'>) => {
    const frame = document.createElement('iframe');
    document.body.append(frame);
    const controller = new (frame.contentWindow as unknown as typeof globalThis).AbortController();
    let firstChunk!: () => void;
    const streamed = new Promise<void>((resolve) => (firstChunk = resolve));
    const job = pool.submit({ ...spec, signal: controller.signal, onChunk: () => firstChunk() });
    await Promise.race([streamed, job]);
    controller.abort();
    const result = await job;
    frame.remove();
    return {
      foreign: !(controller.signal instanceof AbortSignal),
      status: result.status,
      cancelReason: result.cancelReason ?? null,
      error: result.error?.message ?? null,
    };
  },
};

Object.assign(globalThis, { inkling: api });
pool.subscribe(() => {
  document.getElementById('state')!.textContent = pool.getSnapshot().phase;
});
export type TestApi = typeof api;
