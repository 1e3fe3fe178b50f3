/** Settings of the Node benchmark, read from the environment (see bench.ts), and its output helpers. */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { DETERMINISTIC } from '../setup.js';

export const env = process.env;
export const smoke = env.BENCH_SMOKE === '1';
export const TOKENS = Number(env.BENCH_TOKENS ?? (smoke ? 3 : 128));
export const REPS = Number(env.BENCH_REPS ?? (smoke ? 1 : 5));
export const CANCEL_REPS = Number(env.BENCH_CANCEL_REPS ?? (smoke ? 1 : 20));
export const SCALE_REPS = Number(env.BENCH_SCALE_REPS ?? (smoke ? 1 : 10));
export const SCALE_TOKENS = Number(env.BENCH_SCALE_TOKENS ?? (smoke ? 2 : 48));
export const SCALE_SIZES = (env.BENCH_SCALE_SIZES ?? (smoke ? '1,2' : '1,2,4')).split(',').map(Number);
export const GHOST_NOTE = Number(env.BENCH_GHOST_NOTE ?? (smoke ? 600 : 8000));
export const GHOST_PAUSES = Number(env.BENCH_GHOST_PAUSES ?? (smoke ? 3 : 12));
/** The writer's pause between two ghost requests, in ms. */
export const GHOST_GAP_MS = Number(env.BENCH_GHOST_GAP_MS ?? 30);
export const GHOST_REPS = Number(env.BENCH_GHOST_REPS ?? (smoke ? 1 : 2));
export const PARTS = new Set((env.BENCH_PARTS ?? 'decode,cancel,ghost,scaling').split(','));
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

export const median = (xs: number[]) => {
  const s = xs.filter(Number.isFinite).toSorted((a, b) => a - b);
  if (s.length === 0) return Number.NaN;
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};
export const range = (xs: number[]) => `${f(Math.min(...xs))}–${f(Math.max(...xs))}`;

/** A 95% bootstrap interval of median(b) / median(a), resampling each side (seeded, 2,000 draws). */
export function bootstrapRatio(a: number[], b: number[], draws = 2000): [number, number] {
  let seed = 12345;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const pick = (xs: number[]) => Array.from(xs, () => xs[Math.floor(random() * xs.length)]!);
  const ratios = Array.from({ length: draws }, () => median(pick(b)) / median(pick(a))).toSorted((x, y) => x - y);
  return [ratios[Math.floor(draws * 0.025)]!, ratios[Math.floor(draws * 0.975)]!];
}
export const f = (x: number, d = 2) => (Number.isFinite(x) ? x.toFixed(d) : String(x));
