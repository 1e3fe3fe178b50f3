import { defaultGhostParams } from '@inkling/react';
import { type CompletionUsage, EnginePool } from '@inkling/scheduler';
import { type WllamaEngine, wllamaEngines } from '@inkling/wllama';
import wasmUrl from '@wllama/wllama/esm/wasm/wllama.wasm?url';
import { cachedTokensOf } from '../ghost-prefix/replay.js';
import { makeNote, typingSession } from '../ghost-prefix/typingSession.js';

/** What one run types and how the engine is loaded. */
export interface MemoryConfig {
  model: string;
  noteChars: number;
  keystrokes: number;
  sampleEvery: number;
  /** Every n-th request an edit mid-note (0: typing at the end only), as the ghost-prefix replay does. */
  editEvery: number;
  loadParams: Record<string, unknown>;
  /** `wllamaEngines`' bound on llama.cpp's prompt cache (`Infinity`: off, the engine before the bound). */
  promptCacheLimitMiB: number;
}

/** One sample: keystrokes typed so far, and what the last request read from the engine's cache. */
export interface KeystrokeSample {
  keystrokes: number;
  promptTokens: number;
  cachedTokens: number;
  /** The engine's estimate of llama.cpp's prompt cache, MiB, and the worker restarts so far. */
  estimatedMiB: number;
  restarts: number;
  restartMs: number;
}

/** What one run measured besides the samples: every request's time to its first chunk. */
export interface MemoryRun {
  samples: KeystrokeSample[];
  firstChunkMs: number[];
  /** Indexes (0-based) of the requests that waited for a worker restart. */
  afterRestart: number[];
}

declare global {
  interface Window {
    inklingWllamaMemory: (config: MemoryConfig) => Promise<MemoryRun>;
    /** Exposed by the runner: reads the browser's memory at this point. */
    inklingSample: (keystrokes: number) => Promise<void>;
  }
}

window.inklingWllamaMemory = async ({ model, noteChars, keystrokes, sampleEvery, editEvery, loadParams, promptCacheLimitMiB }) => {
  const create = wllamaEngines({
    model,
    wasmUrl,
    seed: 7,
    contextSize: 2048,
    loadParams,
    promptCacheLimitMiB,
    verbose: (globalThis as { inklingVerbose?: boolean }).inklingVerbose === true,
  });
  let engine: WllamaEngine | undefined;
  const pool = new EnginePool({
    createEngine: async (index, onProgress, options) => (engine = (await create(index, onProgress, options)) as WllamaEngine),
    size: 1,
  });
  await pool.load();
  const pauses = typingSession(makeNote(noteChars, 3), keystrokes, { seed: 5, editEvery });
  const samples: KeystrokeSample[] = [];
  const firstChunkMs: number[] = [];
  const afterRestart: number[] = [];
  await window.inklingSample(0);
  for (let i = 1; i <= keystrokes; i += 1) {
    const { text, caret } = pauses[i - 1]!;
    const params = defaultGhostParams({ before: text.slice(0, caret), after: text.slice(caret), maxTokens: 8 });
    const restartsBefore = engine?.promptCache.restarts ?? 0;
    const sent = performance.now();
    let first: number | undefined;
    const result = await pool.submit({
      session: 'memory',
      priority: 'interactive',
      params,
      onChunk: () => void (first ??= performance.now() - sent),
    });
    if (result.status !== 'done') throw new Error(`keystroke ${i} ended ${result.status}: ${result.error?.message ?? ''}`);
    firstChunkMs.push(first ?? Number.NaN);
    // A restart begins after a job and the next job waits for it.
    if (i > 1 && (engine?.promptCache.restarts ?? 0) > restartsBefore) afterRestart.push(i - 1);
    if (i % sampleEvery === 0) {
      const usage = result.usage;
      const stats = engine?.promptCache;
      samples.push({
        keystrokes: i,
        promptTokens: usage?.prompt_tokens ?? Number.NaN,
        cachedTokens: cachedTokensOf(usage as CompletionUsage | undefined),
        estimatedMiB: (stats?.estimatedBytes ?? 0) / 1024 / 1024,
        restarts: stats?.restarts ?? 0,
        restartMs: stats?.restartMs ?? 0,
      });
      await window.inklingSample(i);
    }
  }
  await pool.unload();
  return { samples, firstChunkMs, afterRestart };
};
