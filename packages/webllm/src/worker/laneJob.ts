/**
 * One job on the lanes: its request read once (prompt, sampling, stops,
 * token budget), where it is (its lane, what its sequence holds of its
 * prompt, the token not yet in the cache), what it has sent, and its page's
 * pending pull.
 */

import type { ChatCompletionChunk, StreamingChatCompletionRequest } from '@inkling/scheduler';
import type { Lane } from './laneCache.js';
import type { RowGrammar } from './laneGrammar.js';
import type { LanePipeline } from './lanePipeline.js';
import { laneStopStrings } from './lanePrompt.js';
import { type LaneSampling, seededRandom } from './laneSampler.js';

/** A job of the lanes, from `open` to its last chunk. */
export interface LaneJob {
  readonly id: string;
  readonly request: StreamingChatCompletionRequest;
  readonly prompt: number[];
  readonly sampling: LaneSampling;
  readonly stops: string[];
  readonly maxTokens: number;
  /** A keystroke's job: first to a free lane, and its prefill before other new jobs'. */
  readonly urgent: boolean;
  /** A JSON-schema or grammar job's matcher (`laneGrammar.ts`): its mask goes on each row before the pick. */
  readonly grammar: RowGrammar | undefined;
  lane: Lane<LaneJob> | undefined;
  /** Prompt tokens found in the lane's cache. */
  cached: number;
  /** The sampled token not yet in the cache (fed by the next step). */
  next: number | undefined;
  readonly output: number[];
  readonly counts: Map<number, number>;
  /** Characters of text already sent. */
  sent: number;
  readonly queue: ChatCompletionChunk[];
  waiter: ((step: IteratorResult<ChatCompletionChunk>) => void) | undefined;
  failer: ((reason: unknown) => void) | undefined;
  error: unknown;
  ended: boolean;
  closed: boolean;
  interrupted: boolean;
  readonly started: number;
  /** When its prefill began (after the step in flight, or at that step's readback for an urgent job). */
  prefillAt: number | undefined;
  /** Its prefill was taken while a decode step's readback was under way (see `LaneLoop`'s `#step`). */
  overlapped: boolean;
  /** Jobs on the engine's lanes when this one arrived. */
  busyAtOpen: number;
  firstTokenAt: number | undefined;
}

/** A lane of the lanes' cache, with its job. */
export type JobLane = Lane<LaneJob>;

/**
 * A new job for `request`, whose prompt tokens are `prompt`: the request's
 * sampling values over the model config's, its stop strings and the model's,
 * and at most the tokens the context window has room for.
 */
export function createLaneJob(
  p: LanePipeline,
  request: StreamingChatCompletionRequest,
  prompt: number[],
  at: { id: string; urgent: boolean; busyAtOpen: number; grammar?: RowGrammar | undefined },
): LaneJob {
  const config = p.config;
  const bias = new Map<number, number>();
  for (const [token, value] of Object.entries(request.logit_bias ?? {})) if (Number.isFinite(value)) bias.set(Number(token), value);
  const r = request as Record<string, unknown>;
  const room = p.contextWindowSize - prompt.length;
  const max = typeof request.max_tokens === 'number' && request.max_tokens > 0 ? Math.min(request.max_tokens, room) : room;
  return {
    id: at.id,
    request,
    prompt,
    sampling: {
      temperature: pick(request.temperature, config.temperature, 1),
      topP: pick(request.top_p, config.top_p, 1),
      presencePenalty: pick(r.presence_penalty, config.presence_penalty, 0),
      frequencyPenalty: pick(r.frequency_penalty, config.frequency_penalty, 0),
      repetitionPenalty: pick(r.repetition_penalty, config.repetition_penalty, 1),
      logitBias: bias,
      random: typeof request.seed === 'number' ? seededRandom(request.seed) : Math.random,
    },
    stops: laneStopStrings(p, request),
    maxTokens: max,
    urgent: at.urgent,
    grammar: at.grammar,
    lane: undefined,
    cached: 0,
    next: undefined,
    output: [],
    counts: new Map(),
    sent: 0,
    queue: [],
    waiter: undefined,
    failer: undefined,
    error: undefined,
    ended: false,
    closed: false,
    interrupted: false,
    started: performance.now(),
    prefillAt: undefined,
    overlapped: false,
    busyAtOpen: at.busyAtOpen,
    firstTokenAt: undefined,
  };
}

/** Whether the job waits for its grammar's compile before its prefill (the loop is woken when it is done). */
export function compiling(job: LaneJob): boolean {
  return job.grammar?.state === 'compiling';
}

/** Answers the job's pending pull, if any, with what it has now. */
export function settle(job: LaneJob): void {
  const waiter = job.waiter;
  const failer = job.failer;
  if (!waiter || !failer) return;
  if (job.error !== undefined) {
    job.waiter = job.failer = undefined;
    failer(job.error);
    return;
  }
  const chunk = job.queue.shift();
  if (chunk) {
    job.waiter = job.failer = undefined;
    waiter({ done: false, value: chunk });
  } else if (job.ended || job.closed) {
    job.waiter = job.failer = undefined;
    waiter({ done: true, value: undefined });
  }
}

/** A request's value, else the model config's, else the default. */
function pick(value: unknown, fallback: number | undefined, otherwise: number): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : (fallback ?? otherwise);
}
