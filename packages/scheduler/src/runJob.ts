import { isFinalChunk } from './chunk.js';
import { InvalidJobError } from './errors.js';
import { type Job, isStopping } from './job.js';
import { translationRequest } from './translationRequest.js';
import type {
  ChatCompletionChunk,
  ChatCompletionRequest,
  CreateEmbeddingResponse,
  EmbeddingCreateParams,
  Engine,
  EngineCallOptions,
  JobIdentity,
  TranslationParams,
} from './types.js';

/** What `runJob` tells the pool while it drives the engine call of a job. */
export interface JobCall {
  /** Asks the engine to stop the generation now running for this job. */
  interrupt(): void;
  /** The first `next()` is about to be sent: from here on an interrupt can land. */
  opened(): void;
  chunk(chunk: ChatCompletionChunk): void;
  embedded(response: CreateEmbeddingResponse): void;
  /** Resolves when the job may ask for its next step (`Engine.device`); `undefined`: at once. */
  turn(): Promise<void> | undefined;
}

/**
 * Drives one job on its engine and resolves once the engine is free again.
 * Rejects with the engine's error when a call fails.
 *
 * Cancellation here is written for how WebLLM really behaves:
 *
 * - A stream does nothing until its first `next()`: that is when WebLLM takes
 *   the model lock and resets the interrupt flag. A job stopped before then is
 *   closed unstarted; interrupting an idle engine would instead leave the flag
 *   set for whichever generation comes next (WebLLM before 0.2.86 then returns
 *   empty, aborted answers).
 * - An interrupt sent between that `next()` and the lock being taken is wiped
 *   out by the reset, and prefill never looks at the flag. So while a job is
 *   stopping, every chunk that still arrives repeats the interrupt; the
 *   generation then ends within a decode step instead of running on to
 *   `max_tokens` on the engine a person is waiting for.
 * - A started stream is read to its end, never left: leaving early does not
 *   release WebLLM's lock before 0.2.86, and every later request would hang.
 */
export async function runJob(engine: Engine, job: Job, call: JobCall): Promise<void> {
  // Aborted when the pool wants this call to stop.
  const { signal } = job.controller as AbortController;
  const options = { signal, job: identityOf(job) };
  const params = job.spec.params;
  if (job.kind === 'embedding') {
    if (!engine.embeddings) {
      throw new InvalidJobError('This engine cannot make embeddings; give embedding jobs to a pool of an embedding model.');
    }
    const response = await engine.embeddings.create({ ...(params as EmbeddingCreateParams) }, options);
    call.embedded(response);
    return;
  }

  const stream = await openStream(engine, job, options);
  const iterator = stream[Symbol.asyncIterator]();
  if (isStopping(job)) {
    await closeUnstarted(iterator);
    return;
  }
  call.opened();
  for (;;) {
    // A stopping job drains at full speed; any other may yield the device to a keystroke first.
    const turn = isStopping(job) ? undefined : call.turn();
    if (turn) await turn;
    // An engine that honours `signal` may end an aborted stream by throwing;
    // the pool reads that as the stop it asked for, not as a failure.
    const step = await iterator.next();
    if (step.done) return;
    // The finish and usage chunks come after the generation is over: an interrupt then would land on an idle engine.
    if (isStopping(job) && !isFinalChunk(step.value)) call.interrupt();
    call.chunk(step.value);
  }
}

/** A chat's stream, or a translation's: native where the engine translates, else the translation prompt as a chat. */
function openStream(engine: Engine, job: Job, options: EngineCallOptions): Promise<AsyncIterable<ChatCompletionChunk>> {
  if (job.kind === 'translation') {
    const params = { ...(job.spec.params as TranslationParams) };
    if (engine.translation) return engine.translation.create(params, options);
    return chat(engine, translationRequest(params), options);
  }
  return chat(engine, job.spec.params as ChatCompletionRequest, options);
}

function chat(engine: Engine, params: ChatCompletionRequest, options: EngineCallOptions): Promise<AsyncIterable<ChatCompletionChunk>> {
  return engine.chat.completions.create({ ...params, stream: true, stream_options: { include_usage: true } }, options);
}

function identityOf(job: Job): JobIdentity {
  return {
    id: job.id,
    kind: job.kind,
    task: job.task,
    session: job.session,
    priority: job.priority,
    preemptible: job.preemptible,
    owner: job.spec.owner,
  };
}

async function closeUnstarted(iterator: AsyncIterator<ChatCompletionChunk>): Promise<void> {
  try {
    await iterator.return?.();
  } catch {
    // Nothing ran, so there is nothing to clean up if closing complains.
  }
}
