import { PRIORITY_ORDER } from './constants.js';
import type { InklingError } from './errors.js';
import { type Job, applyChunk, applyEmbeddings, jobInfo, jobRecord } from './job.js';
import { JobQueue } from './jobQueue.js';
import type { Notifier } from './notifier.js';
import type {
  CancelReason,
  ChatCompletionChunk,
  CreateEmbeddingResponse,
  Engine,
  EngineInfo,
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
  | { type: 'load-start' }
  | { type: 'load-progress'; report: PoolLoadProgress }
  | { type: 'load-fail'; error: InklingError }
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
  loading = false;
  loadProgress: PoolLoadProgress | null = null;
  loadError: InklingError | null = null;
  growing = false;
  growthBlocked: string | null = null;
  /** Finished jobs, newest last; turned into records only when a snapshot asks. */
  #finished: Array<{ job: Job; result: JobResult; record?: JobRecord }> = [];
  #recent: readonly JobRecord[] = [];
  #recentStale = false;
  #snapshot: PoolStatus | undefined;
  /** The engine index each session's last job started on, least recent first (session affinity). */
  readonly #affinity = new Map<string, number>();

  constructor(
    readonly maxSize: number,
    readonly historySize: number,
    readonly notifier?: Notifier,
  ) {}

  /** Applies `action` and tells the listeners (batched) that something changed. */
  dispatch(action: PoolAction): void {
    this.apply(action);
    this.notifier?.notify();
  }

  apply(action: PoolAction): void {
    this.#snapshot = undefined;
    switch (action.type) {
      case 'queue': {
        const { job } = action;
        this.live.set(job.id, job);
        if (job.session) {
          this.sessions.set(job.session, job);
          job.preferredEngine = this.#affinity.get(job.session);
        }
        this.queue.push(job);
        return;
      }
      case 'start': {
        const { job, slot } = action;
        this.queue.remove(job);
        slot.jobs.add(job);
        job.state = 'running';
        job.controller = new AbortController();
        job.engineIndex = slot.index;
        job.startedAt = action.at;
        if (job.session) this.#remember(job.session, slot.index);
        return;
      }
      case 'open':
        action.job.streamOpen = true;
        return;
      case 'chunk':
        applyChunk(action.job, action.chunk, action.at);
        return;
      case 'embedded':
        applyEmbeddings(action.job, action.response, action.at);
        return;
      case 'stop': {
        const { job } = action;
        if (action.reason === 'preempt') job.preempting = true;
        else job.cancelReason ??= action.reason;
        return;
      }
      case 'drain':
        // Settled now, its lane held until the engine answers.
        if (action.slot.jobs.delete(action.job)) action.slot.draining.add(action.job);
        return;
      case 'drained':
        action.slot.draining.delete(action.job);
        return;
      case 'finish':
        this.#finish(action.job, action.result);
        return;
      case 'load-start':
        this.loading = true;
        this.loadError = null;
        this.loadProgress = { progress: 0, text: 'Starting', engine: 1, engines: 1 };
        return;
      case 'load-progress':
        this.loadProgress = action.report;
        return;
      case 'load-fail':
        this.loading = false;
        this.loadProgress = null;
        this.loadError = action.error;
        return;
      case 'slot-add':
        // The first engine ends the load.
        if (this.slots.length === 0) {
          this.loading = false;
          this.loadProgress = null;
          this.loadError = null;
        }
        this.slots = [...this.slots, action.slot].toSorted((a, b) => a.index - b.index);
        return;
      case 'slot-remove':
        this.slots = this.slots.filter((s) => s !== action.slot);
        this.#forgetEngine(action.slot.index);
        return;
      case 'slot-down':
        // Its replacement starts with an empty cache: nothing to be near.
        this.#forgetEngine(action.slot.index);
        action.slot.deaths += 1;
        action.slot.ready = false;
        action.slot.engine = undefined;
        // The dead engine's calls will never be waited for: its lanes are free.
        action.slot.draining.clear();
        return;
      case 'slot-up':
        action.slot.engine = action.engine;
        action.slot.concurrency = action.concurrency;
        action.slot.ready = true;
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
        this.loading = false;
        this.loadProgress = null;
        this.loadError = null;
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

  #remember(session: string, index: number): void {
    this.#affinity.delete(session); // re-inserted last: the Map's order is recency
    this.#affinity.set(session, index);
    if (this.#affinity.size <= AFFINITY_SESSIONS) return;
    const oldest = this.#affinity.keys().next();
    if (!oldest.done) this.#affinity.delete(oldest.value);
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
    if (job.session && this.sessions.get(job.session) === job) this.sessions.delete(job.session);
    job.state = 'done';
    if (this.historySize === 0) return;
    this.#finished.push({ job, result });
    // Trimmed in bulk, so a long run of jobs costs no copying per job.
    if (this.#finished.length > 2 * this.historySize) this.#finished = this.#finished.slice(-this.historySize);
    this.#recentStale = true;
  }

  #records(): readonly JobRecord[] {
    if (!this.#recentStale) return this.#recent;
    this.#recentStale = false;
    this.#recent = this.#finished.slice(-this.historySize).map((entry) => {
      entry.record ??= jobRecord(entry.job, entry.result);
      return entry.record;
    });
    return this.#recent;
  }

  #build(): PoolStatus {
    const engines: EngineInfo[] = this.slots.map((slot) => ({
      index: slot.index,
      state: !slot.ready ? 'restarting' : lanesTaken(slot) > 0 ? 'busy' : 'idle',
      concurrency: slot.concurrency,
      jobs: [...slot.jobs, ...slot.draining].map((j) => j.id),
    }));
    const running = this.slots.flatMap((slot) => [...slot.jobs].map(jobInfo));
    const queued = this.queue.all().map(jobInfo);
    const queuedByPriority = Object.fromEntries(
      PRIORITY_ORDER.map((p) => [p, this.queue.count(p)]),
    ) as Record<Priority, number>;
    return {
      phase: this.loading ? 'loading' : this.slots.length > 0 ? 'ready' : this.loadError ? 'error' : 'idle',
      loadProgress: this.loadProgress,
      error: this.loadError,
      size: this.slots.length,
      maxSize: this.maxSize,
      growing: this.growing,
      growthBlocked: this.growthBlocked,
      busy: this.slots.filter((s) => lanesTaken(s) > 0).length,
      running: running.length,
      queued: queued.length,
      queuedByPriority,
      engines,
      jobs: [...running, ...queued],
      recent: this.#records(),
    };
  }
}

/** Lanes in use on a slot: running jobs and settled ones still draining. */
export function lanesTaken(slot: Slot): number {
  return slot.jobs.size + slot.draining.size;
}

/** How many jobs an engine takes at once; anything odd counts as one. */
export function laneCount(engine: Engine): number {
  const n = engine.concurrency;
  return typeof n === 'number' && Number.isInteger(n) && n > 0 ? n : 1;
}
