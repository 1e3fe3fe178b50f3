/// <reference types="vite/client" />
import type { ChatJobSpec, CreateEngine, JobResult } from '@inkling/scheduler';
import { wllamaEngines } from '@inkling/wllama';
import wasmUrl from '@wllama/wllama/esm/wasm/wllama.wasm?url';
import { type Presence, sharedPool } from '../src/index.js';
import { manualPresence } from '../src/testing/index.js';
import { WLLAMA_MODEL_FILE, WLLAMA_POOL_NAME } from './scene.js';

// One tab of the real-engine browser suite: the tab-hosted pool (wllama starts its own Web
// Worker, which a SharedWorker cannot) on a tiny generated model the test serves.

// Counts the Web Workers this tab starts (wllama starts one per engine load); nothing else changes.
let workersStarted = 0;
const PageWorker = globalThis.Worker;
globalThis.Worker = class CountedWorker extends PageWorker {
  constructor(url: string | URL, options?: WorkerOptions) {
    super(url, options);
    workersStarted += 1;
  }
};

let builds = 0;
// In memory, as before storage existed: this suite counts one model download per host, not OPFS reads.
const engines = wllamaEngines({ model: `/${WLLAMA_MODEL_FILE}`, wasmUrl, seed: 7, storage: false });
const createEngine: CreateEngine = (index, onProgress, options) => {
  builds += 1;
  return engines(index, onProgress, options);
};
const presence = manualPresence({ visible: true, focused: true });
const pool = sharedPool({ name: WLLAMA_POOL_NAME, mode: 'tab', pool: { createEngine, size: 1 }, presence });

/** What a test reads of a finished job. */
interface Outcome {
  status: JobResult['status'];
  text: string;
  /** The chunks' text, joined: equals `text` when every token streamed. */
  streamed: string;
  chunks: number;
  error: { name: string; retryable: unknown } | null;
  /** From submit to the first chunk; null without one. */
  firstTokenMs: number | null;
}

const running = new Map<string, Promise<Outcome>>();

function start(key: string, spec: Omit<ChatJobSpec, 'onChunk'>): void {
  const submittedAt = performance.now();
  let firstAt: number | undefined;
  let streamed = '';
  let chunks = 0;
  const outcome = pool
    .submit({
      ...spec,
      onChunk: (chunk) => {
        firstAt ??= performance.now();
        chunks += 1;
        streamed += chunk.choices[0]?.delta.content ?? '';
      },
    })
    .then((result): Outcome => ({
      status: result.status,
      text: result.text,
      streamed,
      chunks,
      error: result.error ? { name: result.error.name, retryable: (result.error as { retryable?: unknown }).retryable } : null,
      firstTokenMs: firstAt === undefined ? null : firstAt - submittedAt,
    }));
  running.set(key, outcome);
}

/** The page's test API, driven by playwright's `page.evaluate`. */
const api = {
  isHost: () => pool.isHost(),
  counts: () => ({ builds, workers: workersStarted }),
  clientId: () => pool.clientId,
  load: () => pool.load().then(() => pool.getSnapshot().phase),
  setPresence: (next: Presence) => presence.set(next),
  start,
  outcome: (key: string) => running.get(key) ?? Promise.reject(new Error(`no job "${key}"`)),
  snapshot: () => {
    const status = pool.getSnapshot();
    return { phase: status.phase, jobs: status.jobs.map((j) => ({ owner: j.owner, state: j.state, tokens: j.tokens })) };
  },
};

Object.assign(globalThis, { inklingWllama: api });
export type WllamaTestApi = typeof api;
