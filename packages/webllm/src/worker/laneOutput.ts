/**
 * What a lane's job sends: the text each new token adds (held back where the
 * tokenizer has not finished a character or a stop string may be starting),
 * the end at a stop token, a stop string or the token budget, and the finish
 * and usage chunks. Only the job's own fields change here; freeing its lane
 * and answering its page is the loop's (`laneLoop.ts`).
 */

import type { CompletionUsage, FinishReason } from '@inkling/scheduler';
import { streamChunk, usageChunk } from '@inkling/scheduler/engine';
import type { LaneJob } from './laneJob.js';
import type { LanePipeline } from './lanePipeline.js';

/**
 * Adds `token` to the job's output and queues the text it adds; returns why
 * the job ends here (a stop token or string: `'stop'`, the budget:
 * `'length'`), or `undefined` when it goes on with `token` as its next input.
 */
export function addToken(p: LanePipeline, model: string, job: LaneJob, token: number): FinishReason | undefined {
  if (p.stopTokens.includes(token)) return 'stop';
  job.output.push(token);
  job.counts.set(token, (job.counts.get(token) ?? 0) + 1);
  const text = p.tokenizer.decode(Int32Array.from(job.output));
  const hit = firstStop(text, job.stops);
  if (hit !== undefined) {
    send(model, job, text.slice(0, hit));
    return 'stop';
  }
  if (job.output.length >= job.maxTokens) {
    send(model, job, text);
    return 'length';
  }
  job.next = token;
  send(model, job, text.slice(0, heldBack(text, job.stops)));
  return undefined;
}

/** Ends the job: its finish chunk, and its usage where the request asked (`lanes`: how many the engine has). */
export function endJob(model: string, job: LaneJob, reason: FinishReason, lanes: number): void {
  job.ended = true;
  job.queue.push(streamChunk(meta(model, job), { role: 'assistant', content: '' }, reason));
  if (job.request.stream_options?.include_usage) job.queue.push(usageChunk(meta(model, job), laneUsage(job, lanes)));
}

/** Sends what `text` adds to what was sent. */
function send(model: string, job: LaneJob, text: string): void {
  if (text.length <= job.sent) return;
  job.queue.push(streamChunk(meta(model, job), { role: 'assistant', content: text.slice(job.sent) }, null));
  job.sent = text.length;
}

/** The job's usage now, with WebLLM's timing fields and the lanes' own. */
function laneUsage(job: LaneJob, lanes: number): CompletionUsage {
  const now = performance.now();
  const first = job.firstTokenAt ?? now;
  const prefillS = (first - job.started) / 1000;
  const decodeS = (now - first) / 1000;
  const completion = job.output.length;
  return {
    prompt_tokens: job.prompt.length,
    completion_tokens: completion,
    total_tokens: job.prompt.length + completion,
    cachedTokens: job.cached,
    extra: {
      time_to_first_token_s: prefillS,
      prefill_tokens_per_s: prefillS > 0 ? (job.prompt.length - job.cached) / prefillS : 0,
      decode_tokens_per_s: decodeS > 0 && completion > 1 ? (completion - 1) / decodeS : 0,
      e2e_latency_s: (now - job.started) / 1000,
      lanes,
      // Why a first token moved: the wait for a lane and the step in flight, then the prefill itself.
      lane_wait_s: ((job.prefillAt ?? first) - job.started) / 1000,
      lane_prefill_s: (first - (job.prefillAt ?? first)) / 1000,
      lane_overlapped: job.overlapped ? 1 : 0,
      lane_busy_at_open: job.busyAtOpen,
    },
  };
}

function meta(model: string, job: LaneJob) {
  return { id: job.id, model };
}

/** Where the first stop string begins in `text`, or `undefined`. */
function firstStop(text: string, stops: readonly string[]): number | undefined {
  let at: number | undefined;
  for (const stop of stops) {
    const i = text.indexOf(stop);
    if (i >= 0 && (at === undefined || i < at)) at = i;
  }
  return at;
}

/**
 * How much of `text` may be sent before the next token: not a character the
 * tokenizer has not finished (U+FFFD), nor a tail that could still become a
 * stop string.
 */
function heldBack(text: string, stops: readonly string[]): number {
  const unfinished = text.indexOf('\uFFFD');
  let end = unfinished >= 0 ? unfinished : text.length;
  for (const stop of stops) {
    for (let k = Math.min(stop.length - 1, end); k > 0; k -= 1) {
      if (text.endsWith(stop.slice(0, k)) && text.length - k < end) {
        end = text.length - k;
        break;
      }
    }
  }
  return end;
}
