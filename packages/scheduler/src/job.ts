import type { InklingError } from './errors.js';
import type {
  CancelReason,
  ChatCompletionChunk,
  CompletionUsage,
  CreateEmbeddingResponse,
  Embedding,
  FinishReason,
  JobInfo,
  JobKind,
  JobRecord,
  JobResult,
  JobSpec,
  JobStatus,
  Priority,
  ToolCall,
} from './types.js';

/** The pool's private record of one job, from submit to result. */
export interface Job {
  readonly id: string;
  readonly task: string;
  readonly session: string | undefined;
  readonly priority: Priority;
  readonly kind: JobKind;
  readonly preemptible: boolean;
  readonly spec: JobSpec;
  /** Aborted when the pool wants the engine call to stop; made when the job starts. */
  controller: AbortController | undefined;
  readonly submittedAt: number;
  state: 'queued' | 'running' | 'done';
  engineIndex: number | undefined;
  /** The engine that ran this job's session last (its cache may still hold the prompt); set when queued. */
  preferredEngine: number | undefined;
  startedAt: number | undefined;
  firstTokenAt: number | undefined;
  /** Set once the first `next()` of the stream has been sent. */
  streamOpen: boolean;
  /** Why the job is being cancelled; set once, first reason wins. */
  cancelReason: CancelReason | undefined;
  /** Being interrupted for an interactive job. */
  preempting: boolean;
  text: string;
  tokens: number;
  usage: JobResult['usage'];
  embeddings: Embedding[] | undefined;
  toolCalls: ToolCall[] | undefined;
  finishReason: FinishReason | undefined;
  /**
   * The last immutable record the snapshot showed of this job, handed out
   * again while every field it shows is the same (compared, never invalidated
   * by hand).
   */
  info: JobInfo | undefined;
  /** Detaches the `AbortSignal` listener. */
  detach: () => void;
  resolve: (result: JobResult) => void;
  readonly promise: Promise<JobResult>;
}

export function createJob(spec: JobSpec, id: string, submittedAt: number): Job {
  let resolve!: (result: JobResult) => void;
  const promise = new Promise<JobResult>((r) => (resolve = r));
  return {
    id,
    // Unlabelled work is its own task, so two bare jobs compete for separate
    // engines the way two different callers would.
    task: spec.task ?? spec.session ?? id,
    session: spec.session,
    priority: spec.priority ?? 'normal',
    kind: spec.kind ?? 'chat',
    preemptible: spec.preemptible === true,
    spec,
    controller: undefined,
    submittedAt,
    state: 'queued',
    engineIndex: undefined,
    preferredEngine: undefined,
    startedAt: undefined,
    firstTokenAt: undefined,
    streamOpen: false,
    cancelReason: undefined,
    preempting: false,
    text: '',
    tokens: 0,
    usage: undefined,
    embeddings: undefined,
    toolCalls: undefined,
    finishReason: undefined,
    info: undefined,
    detach: () => {},
    resolve,
    promise,
  };
}

/** True once the pool has asked the job to stop (cancel, supersession or preemption). */
export function isStopping(job: Job): boolean {
  return job.cancelReason !== undefined || job.preempting;
}

/**
 * Folds one streamed chunk into the job. Chunks that arrive after a stop are
 * being drained: only their usage counts.
 */
export function applyChunk(job: Job, chunk: ChatCompletionChunk, now: number): void {
  // Usage is the engine's account of what it did, so it is kept even while draining.
  if (chunk.usage) job.usage = chunk.usage;
  if (isStopping(job)) return;
  const choice = chunk.choices?.[0];
  const content = choice?.delta?.content;
  if (content) {
    job.text += content;
    job.tokens += 1;
    job.firstTokenAt ??= now;
  }
  // WebLLM's own reason, kept so a caller can tell a natural stop from a
  // `max_tokens` truncation.
  if (choice?.finish_reason) job.finishReason = choice.finish_reason;
  // WebLLM emits tool calls whole, in one terminal chunk; there are no
  // fragments to merge, so the last one seen is the answer.
  if (choice?.delta?.tool_calls) job.toolCalls = choice.delta.tool_calls;
}

export function applyEmbeddings(job: Job, response: CreateEmbeddingResponse, now: number): void {
  job.usage = response.usage;
  job.embeddings = response.data;
  job.firstTokenAt ??= now;
}

export function statusOf(job: Job, error: InklingError | undefined): JobStatus {
  if (job.cancelReason) return 'cancelled';
  if (job.preempting) return 'preempted';
  if (error) return 'error';
  return 'done';
}

export function buildResult(
  job: Job,
  finishedAt: number,
  error: InklingError | undefined,
): JobResult {
  const status = statusOf(job, error);
  const interrupted = status === 'cancelled' || status === 'preempted';
  const result: JobResult = {
    id: job.id,
    status,
    text: job.text,
    // Interrupted work reports "abort" whatever the stream last said.
    finishReason: interrupted ? 'abort' : job.finishReason,
    submittedAt: job.submittedAt,
    finishedAt,
    cancelled: status === 'cancelled',
    preempted: status === 'preempted',
  };
  if (job.usage) result.usage = job.usage as CompletionUsage;
  if (job.embeddings) result.embeddings = job.embeddings;
  if (job.toolCalls) result.toolCalls = job.toolCalls;
  if (job.engineIndex !== undefined) result.engineIndex = job.engineIndex;
  if (job.startedAt !== undefined) result.startedAt = job.startedAt;
  if (job.firstTokenAt !== undefined) result.firstTokenAt = job.firstTokenAt;
  if (job.cancelReason) result.cancelReason = job.cancelReason;
  // An error after a stop is the stop's echo (an aborted fetch), not news.
  if (error && !interrupted) result.error = error;
  return result;
}

/** The job as the snapshot shows it: the same frozen object until one of its fields changes. */
export function jobInfo(job: Job): JobInfo {
  const state = job.state === 'queued' ? 'queued' : isStopping(job) ? 'cancelling' : 'running';
  const last = job.info;
  // Identity, task, session, priority, kind and submission never change; the rest may.
  if (
    last &&
    last.state === state &&
    last.engineIndex === job.engineIndex &&
    last.startedAt === job.startedAt &&
    last.firstTokenAt === job.firstTokenAt &&
    last.tokens === job.tokens
  ) {
    return last;
  }
  job.info = Object.freeze({
    id: job.id,
    task: job.task,
    session: job.session,
    priority: job.priority,
    kind: job.kind,
    preemptible: job.preemptible,
    state,
    engineIndex: job.engineIndex,
    submittedAt: job.submittedAt,
    startedAt: job.startedAt,
    firstTokenAt: job.firstTokenAt,
    tokens: job.tokens,
    // Only when set, so pools without owners show the same objects as before.
    ...(job.spec.owner !== undefined && { owner: job.spec.owner }),
  });
  return job.info;
}

export function jobRecord(job: Job, result: JobResult): JobRecord {
  const { state: _state, ...info } = jobInfo(job);
  return {
    ...info,
    status: result.status,
    cancelReason: result.cancelReason,
    finishedAt: result.finishedAt,
    error: result.error?.message,
  };
}

/** The result of a job refused at `submit`: it never ran. */
export function rejectedResult(id: string, error: InklingError, at: number): JobResult {
  return {
    id,
    status: 'error',
    text: '',
    submittedAt: at,
    finishedAt: at,
    cancelled: false,
    preempted: false,
    error,
  };
}
