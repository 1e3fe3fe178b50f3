import { PRIORITY_ORDER } from './constants.js';
import type { InklingError } from './errors.js';
import { type Job, applyChunk, applyEmbeddings, jobInfo, jobRecord } from './job.js';
import { JobQueue } from './jobQueue.js';
import { lanesTaken } from './schedulingPolicy.js';
import type { NotifyScheduler } from './notifyScheduler.js';
import type {
  CancelReason,
  ChatCompletionChunk,
  CreateEmbeddingResponse,
  Engine,
  JobRecord,
  JobResult,
  PoolLoadProgress,
  PoolStatus,
  Priority,
} from './types.js';

/** One engine and the jobs on its lanes. */
export interface Slot {
  readonly index: number;
  /** `undefined` while a replacement loads. */
  engine: Engine | undefined;
  /** False while restarting: no job may start on it. */
  ready: boolean;
  concurrency: number;
  /** Live jobs running on its lanes. */
  readonly jobs: Set<Job>;
  /**
   * Jobs that have already settled (cancelled, superseded, aborted) while
   * their engine call is still out: each keeps its lane until the engine
   * answers, but no longer counts as its task running.
   */
  readonly draining: Set<Job>;
  /** Pending idle-shrink timer. */
  idleTimer: unknown;
  /** Deaths since a job last finished cleanly on it. */
  deaths: number;
  /**
   * Tasks preempted here that wait before they start here again (see
   * `EnginePoolOptions.resumeDelayMs`), until `heldUntil`.
   */
  readonly heldTasks: Set<string>;
  /** When the last interactive job here ended, plus the resume delay. */
  heldUntil: number;
}

/** Every change to the pool's state, by name. */
export type PoolAction =
  | { type: 'queue'; job: Job }
  | { type: 'start'; job: Job; slot: Slot; at: number }
  | { type: 'open'; job: Job }
  | { type: 'chunk'; job: Job; chunk: ChatCompletionChunk; at: number }
  | { type: 'embedded'; job: Job; response: CreateEmbeddingResponse; at: number }
  | { type: 'stop'; job: Job; reason: CancelReason | 'preempt' }
  | { type: 'drain'; job: Job; slot: Slot }
  | { type: 'drained'; job: Job; slot: Slot }
  | { type: 'finish'; job: Job; result: JobResult }
  /** The first load's progress (`null` once it is over), and its error. */
  | { type: 'load'; progress: PoolLoadProgress | null; error?: InklingError }
  | { type: 'slot-add'; slot: Slot }
  | { type: 'slot-remove'; slot: Slot }
  | { type: 'slot-down'; slot: Slot }
  | { type: 'slot-up'; slot: Slot; engine: Engine | undefined; concurrency: number }
  | { type: 'grow'; growing: boolean; blocked?: string }
  | { type: 'reset' };

/** Sessions whose last engine is remembered; beyond this the least recently started is forgotten. */
export const AFFINITY_SESSIONS = 256;

/**
 * The pool's state and the one place it changes (`dispatch`, which applies an
 * action and tells the pool's listeners). The pool and its helpers do the
 * effects (engine calls, timers, promises) and describe each change as an
 * action, so the snapshot is rebuilt only when something really changed.
 */
export class PoolState {
  slots: Slot[] = [];
  queue = new JobQueue<Job>();
  /** Queued and running jobs by id. */
  readonly live = new Map<string, Job>();
  /** The newest job of each session. */
  readonly sessions = new Map<string, Job>();
  loadProgress: PoolLoadProgress | null = null;
  loadError: InklingError | null = null;
  growing = false;
  growthBlocked: string | null = null;
  /** Finished jobs, newest last; turned into records only when a snapshot asks. */
  #finished: Array<{ job: Job; result: JobResult; record?: JobRecord }> = [];
  /** The snapshot's `recent`, kept until a job finishes. */
  #recent: readonly JobRecord[] | undefined;
  #snapshot: PoolStatus | undefined;
  /** The engine index each session's last job started on, least recent first (session affinity). */
  readonly #affinity = new Map<string, number>();

  readonly #maxSize: number;
  /** Finished jobs kept for the snapshot's `recent`. */
  readonly #historySize: number;
  readonly #notifier: NotifyScheduler | undefined;

  constructor(maxSize: number, historySize: number, notifier?: NotifyScheduler) {
    this.#maxSize = maxSize;
    this.#historySize = historySize;
    this.#notifier = notifier;
  }

  /** True while the first engine loads. */
  get loading(): boolean {
    return this.loadProgress !== null;
  }

  /** Applies `action` and tells the listeners (batched) that something changed. */
  dispatch(action: PoolAction): void {
    this.apply(action);
    this.#notifier?.request();
  }

  apply(action: PoolAction): void {
    this.#snapshot = undefined;
    // Read once for the actions that name them; each case reads only what its action has.
    const { job, slot } = action as { job: Job; slot: Slot };
    switch (action.type) {
      case 'queue':
        this.live.set(job.id, job);
        if (job.session) {
          this.sessions.set(job.session, job);
          job.preferredEngine = this.#affinity.get(job.session);
        }
        this.queue.push(job);
        return;
      case 'start':
        this.queue.start(job);
        slot.jobs.add(job);
        job.state = 'running';
        job.controller = new AbortController();
        job.engineIndex = slot.index;
        job.startedAt = action.at;
        if (job.session) {
          this.#affinity.delete(job.session); // re-inserted last: the Map's order is recency
          this.#affinity.set(job.session, slot.index);
          if (this.#affinity.size > AFFINITY_SESSIONS) this.#affinity.delete(this.#affinity.keys().next().value as string);
        }
        return;
      case 'open':
        job.streamOpen = true;
        return;
      case 'chunk':
        applyChunk(job, action.chunk, action.at);
        return;
      case 'embedded':
        applyEmbeddings(job, action.response, action.at);
        return;
      case 'stop':
        if (action.reason === 'preempt') job.preempting = true;
        else job.cancelReason ??= action.reason;
        return;
      case 'drain':
        // Settled now, its lane held until the engine answers.
        if (slot.jobs.delete(job)) slot.draining.add(job);
        return;
      case 'drained':
        slot.draining.delete(job);
        return;
      case 'finish':
        this.#finish(job, action.result);
        return;
      case 'load':
        this.loadProgress = action.progress;
        this.loadError = action.error ?? null;
        return;
      case 'slot-add':
        // The first engine ends the load.
        if (this.slots.length === 0) this.apply({ type: 'load', progress: null });
        this.slots = [...this.slots, slot].toSorted((a, b) => a.index - b.index);
        return;
      case 'slot-remove':
        this.slots = this.slots.filter((s) => s !== slot);
        this.#forgetEngine(slot.index);
        return;
      case 'slot-down':
        // Its replacement starts with an empty cache: nothing to be near.
        this.#forgetEngine(slot.index);
        slot.deaths += 1;
        slot.ready = false;
        slot.engine = undefined;
        // The dead engine's calls will never be waited for: its lanes are free.
        slot.draining.clear();
        return;
      case 'slot-up':
        slot.engine = action.engine;
        slot.concurrency = action.concurrency;
        slot.ready = true;
        return;
      case 'grow':
        this.growing = action.growing;
        if (action.blocked !== undefined) this.growthBlocked = action.blocked;
        return;
      case 'reset':
        this.slots = [];
        this.queue = new JobQueue();
        this.live.clear();
        this.sessions.clear();
        this.#affinity.clear();
        this.apply({ type: 'load', progress: null });
        this.growing = false;
        // A smaller model may well fit where this one did not.
        this.growthBlocked = null;
        return;
    }
  }

  /** The engine a session's last job started on, if remembered. */
  engineOf(session: string): number | undefined {
    return this.#affinity.get(session);
  }

  /** How many sessions' engines are remembered (at most `AFFINITY_SESSIONS`). */
  get rememberedSessions(): number {
    return this.#affinity.size;
  }

  #forgetEngine(index: number): void {
    for (const [session, engine] of this.#affinity) if (engine === index) this.#affinity.delete(session);
    for (const job of this.queue.all()) if (job.preferredEngine === index) job.preferredEngine = undefined;
  }

  /** The snapshot, rebuilt only after a change. */
  snapshot(): PoolStatus {
    this.#snapshot ??= this.#build();
    return this.#snapshot;
  }

  #finish(job: Job, result: JobResult): void {
    if (job.state === 'queued') this.queue.remove(job);
    for (const slot of this.slots) {
      // A clean finish proves the engine works again.
      if (slot.jobs.delete(job) && result.status === 'done') slot.deaths = 0;
    }
    this.live.delete(job.id);
    if (this.sessions.get(job.session as string) === job) this.sessions.delete(job.session as string);
    job.state = 'done';
    if (this.#historySize === 0) return;
    this.#finished.push({ job, result });
    this.#recent = undefined;
    // Trimmed in bulk, so a long run of jobs costs no copying per job.
    if (this.#finished.length > 2 * this.#historySize) this.#finished = this.#finished.slice(-this.#historySize);
  }

  #build(): PoolStatus {
    const { slots, queue } = this;
    const busy = slots.filter((slot) => lanesTaken(slot) > 0);
    const running = slots.flatMap((slot) => [...slot.jobs].map(jobInfo));
    const queued = queue.all().map(jobInfo);
    return {
      phase: this.loading ? 'loading' : slots.length > 0 ? 'ready' : this.loadError ? 'error' : 'idle',
      loadProgress: this.loadProgress,
      error: this.loadError,
      size: slots.length,
      maxSize: this.#maxSize,
      growing: this.growing,
      growthBlocked: this.growthBlocked,
      busy: busy.length,
      running: running.length,
      queued: queued.length,
      queuedByPriority: Object.fromEntries(PRIORITY_ORDER.map((p) => [p, queue.count(p)])) as Record<Priority, number>,
      engines: slots.map((slot) => ({
        index: slot.index,
        state: !slot.ready ? 'restarting' : busy.includes(slot) ? 'busy' : 'idle',
        concurrency: slot.concurrency,
        jobs: [...slot.jobs, ...slot.draining].map((j) => j.id),
      })),
      jobs: [...running, ...queued],
      // Each record is made once, when a snapshot first shows it.
      recent: (this.#recent ??= this.#finished.slice(-this.#historySize).map((entry) => {
        entry.record ??= jobRecord(entry.job, entry.result);
        return entry.record;
      })),
    };
  }
}

/** How many jobs an engine takes at once; anything odd counts as one. */
export function laneCount(engine: Engine): number {
  const n = engine.concurrency;
  return Number.isInteger(n) && (n as number) > 0 ? (n as number) : 1;
}
