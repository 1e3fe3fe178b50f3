import type { ChatCompletionRequest, PoolLoadProgress } from '@inkling/scheduler';
import { sharedPool } from '@inkling/shared-pool';
import { manualPresence } from '@inkling/shared-pool/testing';
import { BUILDS_CHANNEL, SHARED_POOL_NAME } from './sharedScene.js';

// One tab of `verify:real-engine --host=shared-worker`: a client of the pool in the SharedWorker.
declare global {
  interface Window {
    inklingShared?: typeof api;
  }
}

let builds = 0;
new BroadcastChannel(BUILDS_CHANNEL).addEventListener('message', () => (builds += 1));
const pool = sharedPool({
  name: SHARED_POOL_NAME,
  mode: 'shared-worker',
  worker: () => new SharedWorker('/sharedHost.js', { type: 'module', name: SHARED_POOL_NAME }),
  presence: manualPresence({ visible: true, focused: true }),
});
const log = (line: string) => console.log(`[check] ${line}`);

/** A finished completion, as the driver reads it. */
interface Completion {
  status: string;
  text: string;
  streamed: string;
  chunks: number;
  error: string | null;
  firstTokenMs: number | null;
  totalMs: number;
}

const api = {
  /** Engine builds heard since this tab opened (the SharedWorker announces each). */
  builds: () => builds,
  /** Holds the model; resolves with the load time and the progress reports seen. */
  load: async (label: string) => {
    const started = performance.now();
    let reports = 0;
    let lastTenth = -1;
    await pool.load((report: PoolLoadProgress) => {
      reports += 1;
      const tenth = Math.floor(report.progress * 10);
      if (tenth !== lastTenth) log(`  ${label} load ${(report.progress * 100).toFixed(0)}% ${report.text.slice(0, 80)}`);
      lastTenth = tenth;
    });
    return { ms: performance.now() - started, reports, phase: pool.getSnapshot().phase };
  },
  complete: async (params: ChatCompletionRequest): Promise<Completion> => {
    const started = performance.now();
    let firstAt: number | undefined;
    let streamed = '';
    let chunks = 0;
    const result = await pool.submit({
      params,
      onChunk: (chunk) => {
        firstAt ??= performance.now();
        chunks += 1;
        streamed += chunk.choices[0]?.delta.content ?? '';
      },
    });
    return {
      status: result.status,
      text: result.text,
      streamed,
      chunks,
      error: result.error ? `${result.error.name}: ${result.error.message}` : null,
      firstTokenMs: firstAt === undefined ? null : firstAt - started,
      totalMs: performance.now() - started,
    };
  },
};
window.inklingShared = api;
