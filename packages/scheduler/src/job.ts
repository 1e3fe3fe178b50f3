import type { InklingError } from './errors.js';
import { chunkText } from './chunk.js';
import { jobResult } from './jobResult.js';
import type {
  CancelReason,
  ChatCompletionChunk,
  CreateEmbeddingResponse,
  Embedding,
  FinishReason,
  JobInfo,
  JobKind,
  JobRecord,
  JobResult,
  JobSpec,
  Priority,
  ToolCall,
} from './types.js';

/** The pool's private record of one job, from submit to result. */
export interface Job {
  readonly id: string;
  readonly task: string;
  readonly session: string | undefined;
  /** `spec.owner`: whose job it is, for fairness between a shared pool's clients. */
  readonly owner: string | undefined;
  readonly priority: Priority;
  readonly kind: JobKind;
  readonly preemptible: boolean;
  readonly spec: JobSpec;
  readonly submittedAt: number;
  state: 'queued' | 'running' | 'done';
  /** Submission order, set by the queue. */
  order?: number;
  /** Aborted when the pool wants the engine call to stop; made when the job starts. */
  controller?: AbortController;
  engineIndex?: number;
  /** The engine that ran this job's session last (its cache may still hold the prompt); set when queued. */
  preferredEngine?: number | undefined;
  startedAt?: number;
  firstTokenAt?: number;
  /** Set once the first `next()` of the stream has been sent. */
  streamOpen?: boolean;
  /** Why the job is being cancelled; set once, first reason wins. */
  cancelReason?: CancelReason;
  /** Being interrupted for an interactive job. */
  preempting?: boolean;
  /** Runs beside its engine's lanes (`Engine.offLane`); asked once, when an engine is first there to ask. */
  offLane?: boolean;
  text: string;
  tokens: number;
  usage?: JobResult['usage'];
  embeddings?: Embedding[];
  toolCalls?: ToolCall[];
  finishReason?: FinishReason;
  /**
   * The last immutable record the snapshot showed of this job, handed out
   * again while every field it shows is the same (compared, never invalidated
   * by hand).
   */
  info?: JobInfo;
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
    owner: spec.owner,
    priority: spec.priority ?? 'normal',
    kind: spec.kind ?? 'chat',
    preemptible: spec.preemptible === true,
    spec,
    submittedAt,
    state: 'queued',
    text: '',
    tokens: 0,
    detach: () => {},
    resolve,
    promise,
  };
}

/** True once the pool has asked the job to stop (cancel, supersession or preemption). */
export function isStopping(job: Job): boolean {
  return job.cancelReason !== undefined || job.preempting === true;
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
  const content = chunkText(chunk);
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

/** The job's result, through the one constructor every pool uses. */
export function buildResult(job: Job, finishedAt: number, error: InklingError | undefined): JobResult {
  const status = job.cancelReason ? 'cancelled' : job.preempting ? 'preempted' : error ? 'error' : 'done';
  return jobResult({
    id: job.id,
    status,
    text: job.text,
    submittedAt: job.submittedAt,
    finishedAt,
    finishReason: job.finishReason,
    error,
    cancelReason: job.cancelReason,
    usage: job.usage,
    embeddings: job.embeddings,
    toolCalls: job.toolCalls,
    engineIndex: job.engineIndex,
    startedAt: job.startedAt,
    firstTokenAt: job.firstTokenAt,
  });
}

/**
 * What the snapshot shows of a job as it is on the job: fixed at submit up to
 * `submittedAt`, changing while the job lives from `engineIndex` on.
 */
const SHOWN = [
  'id',
  'task',
  'session',
  'priority',
  'kind',
  'preemptible',
  'submittedAt',
  'engineIndex',
  'startedAt',
  'firstTokenAt',
  'tokens',
] as const;
const CHANGING = SHOWN.slice(SHOWN.indexOf('engineIndex'));

/** The job as the snapshot shows it: the same frozen object until one of its fields changes. */
export function jobInfo(job: Job): JobInfo {
  const state = job.state === 'queued' ? 'queued' : isStopping(job) ? 'cancelling' : 'running';
  const last = job.info;
  if (last?.state === state && CHANGING.every((key) => last[key] === job[key])) return last;
  const info: Record<string, unknown> = { state };
  for (const key of SHOWN) info[key] = job[key];
  // Only when set, so pools without owners show the same objects as before.
  if (job.spec.owner !== undefined) info.owner = job.spec.owner;
  job.info = Object.freeze(info) as unknown as JobInfo;
  return job.info;
}

export function jobRecord(job: Job, result: JobResult): JobRecord {
  const { state: _state, ...info } = jobInfo(job);
  const record: JobRecord = {
    ...info,
    status: result.status,
    cancelReason: result.cancelReason,
    finishedAt: result.finishedAt,
    error: result.error?.message,
  };
  const cached = (result.usage as { cachedTokens?: unknown } | undefined)?.cachedTokens;
  // Only when known, so pools whose engines do not say show the same records as before.
  return typeof cached === 'number' ? { ...record, cachedTokens: cached } : record;
}
