/** Settings of the Node benchmark, read from the environment (see bench.ts), and its output helpers. */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { DETERMINISTIC } from '../setup.js';

export const env = process.env;
export const smoke = env.BENCH_SMOKE === '1';
export const TOKENS = Number(env.BENCH_TOKENS ?? (smoke ? 3 : 256));
export const REPS = Number(env.BENCH_REPS ?? (smoke ? 1 : 3));
export const PARTS = new Set((env.BENCH_PARTS ?? 'decode,cancel,scaling,ghost,embedding').split(','));
export const dawn = required('BENCH_DAWN');
export const libs = required('BENCH_LIBS');
export const models = resolve(env.BENCH_MODELS ?? '/tmp/inkling-models');
export const threadEntry = new URL('./engineThread.mjs', import.meta.url);
const t0 = performance.now();
export const out: Record<string, unknown> = {};
export const say = (line: string) => console.log(`${((performance.now() - t0) / 1000).toFixed(1).padStart(6)} s  ${line}`);

function required(name: string): string {
  const value = env[name];
  if (!value || !existsSync(value)) {
    console.error(`Set ${name} to an existing path (got ${String(value)}).`);
    process.exit(2);
  }
  return resolve(value);
}

/** A prompt of about `words` tokens. */
const prompt = (words: number) =>
  Array.from({ length: words }, (_, i) => ['the', 'quick', 'brown', 'fox', 'jumps', 'over', 'lazy', 'dog'][i % 8]).join(' ');
export const LONG_PROMPT = prompt(smoke ? 8 : 200);
export const GHOST_PROMPT = prompt(smoke ? 4 : 24);
export const request = (content: string, max_tokens: number) => ({
  messages: [{ role: 'user' as const, content }],
  max_tokens,
  ...DETERMINISTIC,
});

export const median = (xs: number[]) => xs.toSorted((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;
export const f = (x: number, d = 2) => (Number.isFinite(x) ? x.toFixed(d) : String(x));

