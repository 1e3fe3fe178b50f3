import type { ChatJobSpec, JobResult } from '@inkling/scheduler';
import { type ChromeLike, extensionPoolClient, extensionPresence } from '../../src/extension/index.js';
import { CHROME_CALLS, missingCalls } from '../../test/fakeChromeShape.js';

// The test extension's content script: a pool client on the package's defaults (presence from this
// tab), reached by the test through window messages (a content script lives in its own world).

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
  snapshot: () => {
    const status = pool.getSnapshot();
    return {
      phase: status.phase,
      size: status.size,
      jobs: status.jobs.map((j) => ({ id: j.id, owner: j.owner, state: j.state, priority: j.priority, tokens: j.tokens })),
    };
  },
  offscreen: () => chrome.runtime.sendMessage({ test: 'offscreen' }) as Promise<{ builds: number; workers?: number; startedAt: number; missing: string[] }>,
  missingCalls: () => missingCalls(chrome, CHROME_CALLS.everywhere),
};
export type ContentTestApi = typeof api;

// oxlint-disable-next-line unicorn/prefer-add-event-listener -- one listener, for the test's calls
addEventListener('message', (event: MessageEvent) => {
  const call = event.data as { to?: string; id?: number; cmd?: keyof typeof api; args?: unknown[] };
  if (event.source !== window || call?.to !== 'inkling-content' || !call.cmd) return;
  const reply = (body: { result?: unknown; error?: string }) => window.postMessage({ from: 'inkling-content', id: call.id, ...body }, '*');
  Promise.resolve()
    .then(() => (api[call.cmd!] as (...args: unknown[]) => unknown)(...(call.args ?? [])))
    .then(
      (result) => reply({ result }),
      (error: unknown) => reply({ error: error instanceof Error ? error.message : String(error) }),
    );
});
document.documentElement.dataset.inklingContent = 'ready';
