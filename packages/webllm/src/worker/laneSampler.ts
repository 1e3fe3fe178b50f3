/**
 * The pick of one lane's next token from its row of logits, on the CPU: what
 * WebLLM's pipeline does for its one sequence (penalties, `logit_bias`,
 * temperature, top-p), written for one row of a batch. Greedy rows
 * (temperature below TVM's 1e-6f) take the largest logit in one pass, ties to
 * the lowest id, as `greedyPick.ts` does.
 */

import { argmax } from './greedyPick.js';

/** How one lane samples: the request's values over the model's defaults. */
export interface LaneSampling {
  /** Default 1 (the model's config may set another). Below 1e-6: greedy. */
  temperature: number;
  /** Default 1: the whole distribution. */
  topP: number;
  /** OpenAI's: subtracted once from every token already generated. Default 0. */
  presencePenalty: number;
  /** OpenAI's: subtracted per occurrence. Default 0. */
  frequencyPenalty: number;
  /** The CTRL-style one WebLLM applies over generated tokens. Default 1 (none). */
  repetitionPenalty: number;
  /** Token id → value added to its logit. */
  logitBias: ReadonlyMap<number, number>;
  /** Uniform numbers in [0, 1): seeded per lane when the request has a `seed`. */
  random: () => number;
}

/** TVM compares the temperature with the float 1e-6f. */
const GREEDY_BELOW = Math.fround(1e-6);

/** Whether a lane takes the largest logit (temperature below TVM's 1e-6f) rather than a draw. */
export function isGreedy(sampling: Pick<LaneSampling, 'temperature'>): boolean {
  return !(sampling.temperature >= GREEDY_BELOW);
}

/**
 * The next token of a lane. `row` is changed in place (penalties and bias);
 * `counts` holds how often each token was generated so far in this lane.
 *
 * @example
 * const token = pickLaneToken(row, sampling, counts);
 * counts.set(token, (counts.get(token) ?? 0) + 1);
 */
export function pickLaneToken(row: Float32Array, sampling: LaneSampling, counts: ReadonlyMap<number, number>): number {
  const { presencePenalty, frequencyPenalty, repetitionPenalty } = sampling;
  for (const [token, count] of counts) {
    if (token < 0 || token >= row.length) continue;
    let value = row[token]!;
    if (repetitionPenalty !== 1) value = value > 0 ? value / repetitionPenalty : value * repetitionPenalty;
    value -= presencePenalty + frequencyPenalty * count;
    row[token] = value;
  }
  for (const [token, bias] of sampling.logitBias) if (token >= 0 && token < row.length) row[token] = row[token]! + bias;
  if (isGreedy(sampling)) return Math.max(0, argmax(row));
  return sampleTopP(row, sampling.temperature, sampling.topP, sampling.random());
}

/** Softmax at `temperature`, then a draw `u` within the smallest set of tokens whose mass reaches `topP`. */
function sampleTopP(row: Float32Array, temperature: number, topP: number, u: number): number {
  const max = row[Math.max(0, argmax(row))]!;
  let sum = 0;
  const probs = new Float32Array(row.length);
  for (let i = 0; i < row.length; i += 1) {
    const p = Math.exp((row[i]! - max) / temperature);
    probs[i] = Number.isNaN(p) ? 0 : p;
    sum += probs[i]!;
  }
  if (topP >= 1) {
    let target = u * sum;
    for (let i = 0; i < probs.length; i += 1) {
      target -= probs[i]!;
      if (target < 0) return i;
    }
    return Math.max(0, argmax(probs));
  }
  // Only tokens that could matter are sorted: those above a millionth of the top one.
  const floor = 1e-6;
  const candidates: number[] = [];
  for (let i = 0; i < probs.length; i += 1) if (probs[i]! >= floor) candidates.push(i);
  candidates.sort((a, b) => probs[b]! - probs[a]! || a - b);
  let kept = 0;
  let mass = 0;
  for (const i of candidates) {
    mass += probs[i]! / sum;
    kept += 1;
    if (mass >= topP) break;
  }
  let target = u * mass * sum;
  for (let k = 0; k < kept; k += 1) {
    target -= probs[candidates[k]!]!;
    if (target < 0) return candidates[k]!;
  }
  return candidates[kept - 1] ?? 0;
}

/**
 * A small seeded generator of uniform numbers in [0, 1) (mulberry32), for a
 * request with a `seed`: the same seed gives the same draws in any lane.
 *
 * @example
 * const random = seededRandom(42);
 * random(); // always the same first number for 42
 */
export function seededRandom(seed: number): () => number {
  let state = Math.trunc(seed) >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}
