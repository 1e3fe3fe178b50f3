/**
 * Which job runs where, as pure functions over the pool's state.
 *
 * An engine has `concurrency` lanes: one for a WebLLM engine (one generation
 * at a time), several for a server. The rules are the seed's, stated for lanes
 * so that a one-lane engine behaves exactly as the seed's slot did:
 *
 * - A task's jobs run on one engine at most (interactive jobs excepted). The
 *   second engine exists so that a translation and a ghost-text completion run
 *   at once, not to make one batch finish sooner: on a GPU that is already
 *   busy, two streams of the same work each run at half speed (measured 1.06x
 *   on a 2B model), while the ghost text would wait behind both.
 * - The last free lane is kept for a task that is not running, so one batch
 *   never fills the pool. A lane may idle while a running task has work
 *   queued; that is the price, paid on purpose.
 * - `interactive` jobs take any free lane: that band is for work a person is
 *   waiting on keystroke by keystroke. On an engine of several lanes the
 *   last free lane is theirs alone: no other band takes it, so a keystroke
 *   never waits behind lanes full of background work. A task that is not
 *   running then gets the next lane another task gives back (the task holding
 *   fewer lanes goes first), rather than that last one.
 * - A job that runs beside an engine's lanes rather than on one (`offLane`:
 *   WebLLM's own one-sequence path for a JSON schema or tools) runs one at a
 *   time on that engine: a second waits, and may grow the pool.
 * - A task preempted on a one-lane engine waits there while interactive work
 *   goes on (`heldTasks`, released by the pool after `resumeDelayMs`): the
 *   next keystroke then finds the engine free with its prompt still cached.
 *   Other engines take it meanwhile.
 * - Session affinity: of the lanes these rules allow, a job takes one on the
 *   engine that ran its session's previous job when that engine has one free.
 *   Ghost text's consecutive prompts share their start, and an engine with a
 *   prefix cache (llama.cpp, wllama, vLLM) prefills only what is new, but only
 *   if the request reaches the engine that saw the previous one. Affinity
 *   picks between lanes; it never makes a job wait or start that would not.
 */
import { PRIORITY_ORDER } from './constants.js';
import { type ShareKey, fairer } from './ownerShares.js';
import type { JobKind, Priority } from './types.js';

export interface PolicyJob {
  readonly task: string;
  /** Whose job it is (a shared pool's client); absent in a pool of one app. */
  readonly owner?: string | undefined;
  /** The engine index that ran the job's session last, if it should go there again. */
  readonly preferredEngine?: number | undefined;
  readonly priority: Priority;
  readonly kind: JobKind;
  readonly preemptible: boolean;
  readonly startedAt?: number | undefined;
  /** Runs beside the engine's lanes, one at a time per engine (see `Engine.offLane`). */
  readonly offLane?: boolean | undefined;
  /** Being stopped for an interactive job. */
  readonly preempting?: boolean | undefined;
}

/** What the policy reads of the queue (see `JobQueue`). */
export interface PolicyQueue<J> {
  /** The first job of each task, highest band first, FIFO within a band. */
  heads(): J[];
  count(priority: Priority): number;
  /** How many owners have jobs queued in the band (jobs with no owner count as one). */
  owners(priority: Priority): number;
  /** When `owner` last started a job, in start order; -1 if never. */
  turn(owner: string | undefined): number;
}

export interface PolicySlot<J> {
  /** The engine's number, matched against `PolicyJob.preferredEngine`. */
  readonly index: number;
  readonly ready: boolean;
  readonly concurrency: number;
  readonly jobs: ReadonlySet<J>;
  /**
   * Settled jobs whose engine call is still out: they hold lanes but are no
   * task's work any more (see `EngineInfo.jobs`).
   */
  readonly draining: ReadonlySet<unknown>;
  /** Tasks that may not start here for now (a preempted batch waiting out interactive work). */
  readonly heldTasks?: ReadonlySet<string>;
}

/** 0 for the most urgent band. */
function rank(job: PolicyJob): number {
  return PRIORITY_ORDER.indexOf(job.priority);
}

/** Lanes in use on a slot: running jobs and settled ones still draining. */
export function lanesTaken(slot: PolicySlot<unknown>): number {
  return slot.jobs.size + slot.draining.size;
}

function openLanes<J>(slot: PolicySlot<J>): number {
  return slot.ready ? Math.max(0, slot.concurrency - lanesTaken(slot)) : 0;
}

/** Lanes taken beyond the engine's lanes: each is a preempted job's lane already handed to an interactive job. */
function overflow(slot: PolicySlot<unknown>): number {
  return Math.max(0, lanesTaken(slot) - slot.concurrency);
}

/**
 * Lanes of an engine of several lanes that preempted jobs are giving up and
 * no interactive job has taken yet. Such an engine ends a lane before its
 * next step and takes a new job's prefill first, so the interactive job is
 * handed the lane at once rather than after the preempted job's last chunk:
 * for that moment the engine has one call more than lanes, and the newcomer
 * waits for the lane inside the engine. A one-lane engine stops the whole
 * generation instead, so there the lane is given when the engine answers.
 */
function handedLanes(slot: PolicySlot<unknown>): number {
  if (!slot.ready || slot.concurrency <= 1) return 0;
  let preempting = 0;
  for (const job of slot.jobs) if ((job as PolicyJob).preempting === true) preempting += 1;
  return Math.max(0, preempting - overflow(slot));
}

/** Whether `slot` keeps `job` out for now: its task was preempted there and interactive work goes on. */
function holds(slot: PolicySlot<unknown>, job: PolicyJob): boolean {
  return job.priority !== 'interactive' && slot.heldTasks?.has(job.task) === true;
}

/** Whether a job that runs beside the lanes is on `slot` now (running or draining). */
export function runsOffLane(slot: PolicySlot<unknown>): boolean {
  for (const job of [...slot.jobs, ...slot.draining]) if ((job as PolicyJob).offLane === true) return true;
  return false;
}

/**
 * The lanes of `slot` that `job` may take: on an engine of several lanes the
 * last free one is kept for interactive work, and a job that runs beside
 * the lanes takes none while another such job is there.
 */
export function lanesFor(slot: PolicySlot<unknown>, job: PolicyJob): number {
  const open = openLanes(slot);
  if (job.priority === 'interactive') return job.offLane === true && runsOffLane(slot) ? 0 : open + handedLanes(slot);
  if (open === 0 || (job.offLane === true && runsOffLane(slot))) return 0;
  return slot.concurrency > 1 ? open - 1 : open;
}

/**
 * Of `slots`, the job's preferred engine when it has a lane for it, else the
 * one with the most such lanes (the first such on a tie).
 */
function slotFor<S extends PolicySlot<unknown>>(job: PolicyJob, slots: readonly S[]): S | undefined {
  const open = slots.filter((slot) => lanesFor(slot, job) > 0 && !holds(slot, job));
  const roomiest = open.reduce<S | undefined>(
    (best, slot) => (best && lanesFor(best, job) >= lanesFor(slot, job) ? best : slot),
    undefined,
  );
  return open.find((slot) => slot.index === job.preferredEngine) ?? roomiest;
}

/**
 * The next job to start and the slot to start it on, or `undefined` when no
 * queued job may start now. Only each task's first job is looked at: whether
 * a job may start depends on its task and band alone.
 *
 * Within the first band that has a startable job, a job whose task holds fewer
 * lanes goes first (ties: FIFO). With one-lane engines every startable job
 * holds none, so this is plain FIFO; on a many-lane server it shares the lanes
 * out between tasks instead of letting the first batch take them all. When
 * the band holds jobs of several owners (a shared pool's clients), owners
 * come before tasks: the one holding the fewest lanes, then the one whose
 * turn is oldest (see `ownerShares.ts`).
 */
export function pickNext<J extends PolicyJob, S extends PolicySlot<J>>(
  queue: PolicyQueue<J>,
  slots: readonly S[],
): { job: J; slot: S } | undefined {
  const spare = slots.reduce((n, s) => n + openLanes(s), 0);
  if (spare === 0 && !slots.some((s) => handedLanes(s) > 0)) return undefined;

  let best: { job: J; slot: S; key: ShareKey } | undefined;
  let shared: ReadonlyMap<string | undefined, number> | undefined;
  for (const job of queue.heads()) {
    if (best && job.priority !== best.job.priority) break;
    // Interactive jobs take any free lane, as if their task held none.
    const held = job.priority === 'interactive' ? 0 : slots.reduce((n, s) => n + [...s.jobs].filter((j) => j.task === job.task).length, 0);
    // Not running: any lane. Running: another lane on its own engine, and
    // only while that leaves a lane free for someone else.
    const own = held > 0 && slots.filter((s) => [...s.jobs].some((j) => j.task === job.task));
    const slot = !own ? slotFor(job, slots) : spare > 1 ? slotFor(job, own) : undefined;
    if (!slot) continue;
    // One owner in the band (the usual case): the task rule alone, and the first job holding no lane is the answer.
    if (queue.owners(job.priority) < 2) {
      if (!best || held < best.key.taskLanes) best = { job, slot, key: { ownerLanes: 0, turn: 0, taskLanes: held } };
      if (held === 0) break;
      continue;
    }
    shared ??= lanesByOwner(slots);
    const key = { ownerLanes: shared.get(job.owner) ?? 0, turn: queue.turn(job.owner), taskLanes: held };
    if (!best || fairer(key, best.key)) best = { job, slot, key };
  }
  return best;
}

/** Lanes each owner's running jobs hold. */
function lanesByOwner(slots: readonly PolicySlot<PolicyJob>[]): Map<string | undefined, number> {
  const lanes = new Map<string | undefined, number>();
  for (const slot of slots) for (const job of slot.jobs) lanes.set(job.owner, (lanes.get(job.owner) ?? 0) + 1);
  return lanes;
}

/**
 * How many running jobs to preempt now: one per queued interactive job that
 * no lane is already being freed for. A job that is stopping (superseded,
 * cancelled, or already preempted) hands its lane over within a decode step,
 * so preempting another job for the same keystroke would waste its work.
 */
export function preemptionsWanted<J extends PolicyJob>(
  queue: PolicyQueue<J>,
  slots: readonly PolicySlot<J>[],
  isStopping: (job: J) => boolean,
): number {
  const waiting = queue.count('interactive');
  if (waiting === 0) return 0;
  // A stopping job whose lane was already handed over (`handedLanes`) frees nothing more.
  const freeing = slots
    .filter((slot) => slot.ready)
    .reduce((n, slot) => n + openLanes(slot) + slot.draining.size + [...slot.jobs].filter(isStopping).length - overflow(slot), 0);
  return Math.max(0, waiting - freeing);
}

/**
 * The running jobs an interactive job may take a lane from, best first: ones
 * that opted in, stream (chats and translations; an embedding cannot be interrupted), are not
 * interactive themselves and are not already stopping. Lowest band first,
 * then the most recently started, which loses the least work.
 */
export function preemptionVictims<J extends PolicyJob>(slots: readonly PolicySlot<J>[], isStopping: (job: J) => boolean): J[] {
  return slots
    .flatMap((slot) => (slot.ready ? [...slot.jobs] : []))
    .filter((job) => job.preemptible && job.kind !== 'embedding' && job.priority !== 'interactive' && !isStopping(job))
    .toSorted((a, b) => rank(b) - rank(a) || (b.startedAt ?? 0) - (a.startedAt ?? 0));
}

/**
 * True when a queued job belongs to a task that is not running: the whole
 * growth policy of one-lane engines. Four queued items of one batch keep the
 * pool at one engine; one queued completion beside them grows it.
 */
export function hasCrossTaskDemand<J extends PolicyJob>(queue: PolicyQueue<J>, slots: readonly PolicySlot<J>[]): boolean {
  const running = new Set(slots.flatMap((slot) => [...slot.jobs].map((job) => job.task)));
  return running.size > 0 && queue.heads().some((job) => !running.has(job.task));
}

/**
 * Whether another engine (another copy of the weights) buys something now.
 * One-lane engines: a job of another task waits (`hasCrossTaskDemand`).
 * Engines of several lanes grow lanes, not engines: only a queued job no
 * engine can take for a reason a lane freeing up would not change (one that
 * runs beside the lanes while every engine already runs one) grows the pool,
 * unless `whenLanesFull` asks for the one-lane rule.
 */
export function wantsAnotherEngine<J extends PolicyJob>(
  queue: PolicyQueue<J>,
  slots: readonly PolicySlot<J>[],
  whenLanesFull: boolean,
): boolean {
  if (whenLanesFull || slots.every((slot) => slot.concurrency <= 1)) return hasCrossTaskDemand(queue, slots);
  return queue.heads().some((job) => job.offLane === true && slots.every(runsOffLane));
}
