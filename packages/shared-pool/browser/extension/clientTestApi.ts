import type { ChatJobSpec, JobResult } from '@inkling/scheduler';
import { type ChromeLike, extensionPoolClient, extensionPresence } from '../../src/extension/index.js';
import { CHROME_CALLS, missingCalls } from '../../test/fakeChromeShape.js';

// The test API of a client context of the test extension (a content script, the popup): a pool client
// on the package's defaults, its connections counted.

const counts = { connects: 0, ensures: 0 };
// The real chrome.runtime, counted: every port the client opens and every request for the document.
const counted: ChromeLike = {
  runtime: {
    connect: (info) => {
      counts.connects += 1;
      return chrome.runtime.connect(info);
    },
    sendMessage: (message) => {
      if ((message as { inkling?: string }).inkling === 'ensure-offscreen') counts.ensures += 1;
      return chrome.runtime.sendMessage(message);
    },
    getURL: (path) => chrome.runtime.getURL(path),
    get lastError() {
      return chrome.runtime.lastError;
    },
    onConnect: chrome.runtime.onConnect,
    onMessage: chrome.runtime.onMessage,
  },
};
const pool = extensionPoolClient({ chrome: counted });
const presence = extensionPresence();

/** What a test reads of a finished job. */
interface Outcome {
  status: JobResult['status'];
  text: string;
  chunks: number;
  error: { name: string; retryable: unknown } | null;
  firstTokenMs: number | null;
}
const running = new Map<string, Promise<Outcome>>();
/** Every snapshot this client was given, as JSON, once `watch()` ran. */
const seen: string[] = [];

function start(key: string, spec: Omit<ChatJobSpec, 'onChunk'>): void {
  const submittedAt = performance.now();
  let firstAt: number | undefined;
  let chunks = 0;
  const outcome = pool
    .submit({
      ...spec,
      onChunk: () => {
        chunks += 1;
        firstAt ??= performance.now();
      },
    })
    .then((result): Outcome => ({
      status: result.status,
      text: result.text,
      chunks,
      error: result.error ? { name: result.error.name, retryable: (result.error as { retryable?: unknown }).retryable } : null,
      firstTokenMs: firstAt === undefined ? null : firstAt - submittedAt,
    }));
  running.set(key, outcome);
}

const api = {
  load: () => pool.load().then(() => pool.getSnapshot().phase),
  start,
  outcome: (key: string) => running.get(key) ?? Promise.reject(new Error(`no job "${key}"`)),
  clientId: () => pool.clientId,
  hostLosses: () => pool.hostLosses,
  counts: () => ({ ...counts }),
  presence: () => presence.get(),
  hasFocus: () => document.hasFocus(),
  snapshot: () => {
    const status = pool.getSnapshot();
    return {
      phase: status.phase,
      size: status.size,
      jobs: status.jobs.map((j) => ({ id: j.id, owner: j.owner, state: j.state, priority: j.priority, tokens: j.tokens })),
      recent: status.recent.map((r) => ({ id: r.id, owner: r.owner, status: r.status, error: r.error })),
      others: status.others,
    };
  },
  watch: () => {
    pool.subscribe(() => seen.push(JSON.stringify(pool.getSnapshot())));
  },
  seen: () => seen.join('\n'),
  failNext: (error: string) => chrome.runtime.sendMessage({ test: 'fail-next', error }) as Promise<boolean>,
  offscreen: () =>
    chrome.runtime.sendMessage({ test: 'offscreen' }) as Promise<{
      builds: number;
      workers?: number;
      startedAt: number;
      missing: string[];
    }>,
  missingCalls: () => missingCalls(chrome, CHROME_CALLS.everywhere),
};
export type ClientTestApi = typeof api;

/** This context's test API. */
export function clientTestApi(): ClientTestApi {
  return api;
}
