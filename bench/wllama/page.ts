import { EnginePool } from '@inkling/scheduler';
import { wllamaEngines } from '@inkling/wllama';
import wasmUrl from '@wllama/wllama/esm/wasm/wllama.wasm?url';
import { GHOST_PROMPTS } from './ghostPrompts.js';
import { cancelToFinal, decodeRate, ghostFirstToken, poolRun, prose, rawRun, timingsOf } from './measure.js';
import { timedEngines } from './timedEngines.js';

/** What the runner asks for. */
export interface BenchConfig {
  model: string;
  repetitions: number;
  decodeTokens: number;
  ghostPrompts: string[];
  /** Characters before the caret for the ghost-text runs, one series each. */
  ghostChars: number[];
}

export interface DecodeSample {
  kind: 'raw' | 'pool';
  consumer: number;
  engine: number;
}

declare global {
  interface Window {
    inklingWllamaBench: (config: BenchConfig) => Promise<unknown>;
  }
}

window.inklingWllamaBench = async (config) => {
  const timed = timedEngines(wllamaEngines({ model: config.model, wasmUrl, seed: 7 }));
  const pool = new EnginePool({ createEngine: timed.createEngine, size: 1 });
  const loadStart = performance.now();
  await pool.load();
  const loadMs = performance.now() - loadStart;
  const engine = timed.engines[0]!;
  const request = { messages: [{ role: 'user' as const, content: prose(200) }], max_tokens: config.decodeTokens, temperature: 0 };
  await rawRun(engine, { ...request, max_tokens: 8 }, timed.streams); // warm-up

  // Decode through the pool against the same engine driven raw, alternating: raw, pool, raw, then
  // pool, raw, raw... The two raw runs of a round give the noise to judge the ratio by.
  const decode: DecodeSample[][] = [];
  for (let round = 0; round < config.repetitions; round += 1) {
    const order: Array<'raw' | 'pool'> = round % 2 === 0 ? ['raw', 'pool', 'raw'] : ['pool', 'raw', 'raw'];
    const samples: DecodeSample[] = [];
    for (const kind of order) {
      const stream = kind === 'raw' ? await rawRun(engine, request, timed.streams) : await poolRun(pool, request, timed.streams);
      samples.push({ kind, consumer: decodeRate(stream), engine: timingsOf(stream).predicted_per_second ?? Number.NaN });
    }
    decode.push(samples);
  }

  const cancels = [];
  for (let i = 0; i < config.repetitions; i += 1)
    cancels.push(await cancelToFinal(pool, { ...request, max_tokens: 400 }, timed.streams, 8));

  // Ghost text: each request is one keystroke after the previous one, as when typing, so
  // llama.cpp's cache holds the previous prompt (idle) or the translation's (busy).
  const ghost: Record<string, Array<{ busy: boolean; ms: number; status: string; promptTokens: number; cachedTokens: number }>> = {};
  for (const name of config.ghostPrompts) {
    const build = GHOST_PROMPTS[name];
    if (!build)
      throw new Error(`No ghost prompt "${name}" in bench/wllama/ghostPrompts.ts; there are: ${Object.keys(GHOST_PROMPTS).join(', ')}.`);
    for (const start of config.ghostChars) {
      const rows = [];
      let chars = start;
      await ghostFirstToken(pool, build, prose(chars), timed.streams, false); // the cache holds this prompt now
      for (let i = 0; i < config.repetitions; i += 1) {
        for (const busy of i % 2 === 0 ? [false, true] : [true, false]) {
          chars += 1;
          rows.push({ busy, ...(await ghostFirstToken(pool, build, prose(chars), timed.streams, busy)) });
        }
      }
      ghost[`${name}, ${start}+ characters`] = rows;
    }
  }
  await pool.unload();
  return { loadMs, threads: (engine as { threads?: number }).threads, decode, cancels, ghost };
};
