import type { Job } from './job.js';
import type { Slot } from './poolState.js';
import { translationRequest } from './translationRequest.js';
import type { ChatCompletionRequest, Engine, TranslationParams } from './types.js';

/**
 * Asks an engine, once per queued job, whether the job would run beside its
 * lanes (`Engine.offLane`), and keeps the answer on the job (`Job.offLane`)
 * for the policy to read. Every engine of a pool comes from one
 * `createEngine`, so the first engine that can say speaks for all. Embeddings
 * and native translations never run on a lane, so they are not asked about;
 * an `offLane` that throws counts as "on a lane".
 */
export function markOffLane(jobs: readonly Job[], slots: readonly Slot[]): void {
  let engine: Engine | undefined;
  for (const slot of slots) if (typeof slot.engine?.offLane === 'function') engine ??= slot.engine;
  if (!engine) return;
  for (const job of jobs) {
    if (job.offLane !== undefined) continue;
    const request = requestOf(job, engine);
    let reason: string | undefined;
    try {
      reason = request === undefined ? undefined : engine.offLane?.(request);
    } catch {
      reason = undefined;
    }
    job.offLane = typeof reason === 'string';
  }
}

/** The chat request the engine will get for `job`, if it gets one. */
function requestOf(job: Job, engine: Engine): ChatCompletionRequest | undefined {
  if (job.kind === 'chat') return job.spec.params as ChatCompletionRequest;
  if (job.kind === 'translation' && !engine.translation) return translationRequest({ ...(job.spec.params as TranslationParams) });
  return undefined;
}
