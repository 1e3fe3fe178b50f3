import { defaultGhostParams } from '@inkling/react';
import { type CompletionUsage, EnginePool } from '@inkling/scheduler';
import { wllamaEngines } from '@inkling/wllama';
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
}

/** One sample: keystrokes typed so far, and what the last request read from the engine's cache. */
export interface KeystrokeSample {
  keystrokes: number;
  promptTokens: number;
  cachedTokens: number;
}

declare global {
  interface Window {
    inklingWllamaMemory: (config: MemoryConfig) => Promise<KeystrokeSample[]>;
    /** Exposed by the runner: reads the browser's memory at this point. */
    inklingSample: (keystrokes: number) => Promise<void>;
  }
}

window.inklingWllamaMemory = async ({ model, noteChars, keystrokes, sampleEvery, editEvery, loadParams }) => {
  const pool = new EnginePool({
    createEngine: wllamaEngines({
      model,
      wasmUrl,
      seed: 7,
      contextSize: 2048,
      loadParams,
      verbose: (globalThis as { inklingVerbose?: boolean }).inklingVerbose === true,
    }),
    size: 1,
  });
  await pool.load();
  const pauses = typingSession(makeNote(noteChars, 3), keystrokes, { seed: 5, editEvery });
  const samples: KeystrokeSample[] = [];
  await window.inklingSample(0);
  for (let i = 1; i <= keystrokes; i += 1) {
    const { text, caret } = pauses[i - 1]!;
    const params = defaultGhostParams({ before: text.slice(0, caret), after: text.slice(caret), maxTokens: 8 });
    const result = await pool.submit({ session: 'memory', priority: 'interactive', params });
    if (result.status !== 'done') throw new Error(`keystroke ${i} ended ${result.status}: ${result.error?.message ?? ''}`);
    if (i % sampleEvery === 0) {
      const usage = result.usage;
      samples.push({
        keystrokes: i,
        promptTokens: usage?.prompt_tokens ?? Number.NaN,
        cachedTokens: cachedTokensOf(usage as CompletionUsage | undefined),
      });
      await window.inklingSample(i);
    }
  }
  await pool.unload();
  return samples;
};
