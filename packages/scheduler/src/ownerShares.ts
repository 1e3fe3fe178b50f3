/**
 * Fair shares between the owners of a band: the clients of a shared pool
 * (`JobSpec.owner`, a tab, a site). Within a band, a job of the owner that
 * holds the fewest lanes goes first, then one of the owner whose last start
 * is the oldest (taking turns), and only then the task and FIFO rules. So one
 * tab's 300 queued jobs and another tab's one take turns instead of the one
 * waiting behind the 300. Jobs of one owner (or of none: a pool in the page)
 * keep every rule they had: FIFO within a band, tasks sharing lanes.
 */

/** What fairness compares of two startable jobs of one band; lower goes first. */
export interface ShareKey {
  /** Lanes the job's owner holds now. */
  readonly ownerLanes: number;
  /** When the job's owner last started a job (its turn); -1 if never. */
  readonly turn: number;
  /** Lanes the job's task holds now (the task rule). */
  readonly taskLanes: number;
}

/**
 * Whether `a` should start before `b`, both startable in one band, `b` the
 * earlier submitted: on a tie the earlier keeps its place (FIFO).
 *
 * @example
 * fairer({ ownerLanes: 0, turn: -1, taskLanes: 0 }, { ownerLanes: 0, turn: 7, taskLanes: 0 }); // true: a's owner has not had a turn
 */
export function fairer(a: ShareKey, b: ShareKey): boolean {
  if (a.ownerLanes !== b.ownerLanes) return a.ownerLanes < b.ownerLanes;
  if (a.turn !== b.turn) return a.turn < b.turn;
  return a.taskLanes < b.taskLanes;
}

/** Owners remembered for their turns, most recent kept: one per tab or site the pool has served lately. */
const REMEMBERED_OWNERS = 1024;

/**
 * How many owners each band holds queued jobs of, and when each owner last
 * started one. `JobQueue` keeps one; the policy reads it to know whether a
 * band needs fairness at all (one owner: it does not) and whose turn it is.
 */
export class OwnerShares<P extends string> {
  /** Band by band, queued jobs per owner (`undefined`: jobs with none). */
  readonly #queued = new Map<P, Map<string | undefined, number>>();
  /** Owner to the number of its last start; the Map's order is recency. */
  readonly #turns = new Map<string, number>();
  #starts = 0;

  /** A job of `owner` joined band `priority`. */
  add(priority: P, owner: string | undefined): void {
    let band = this.#queued.get(priority);
    if (!band) this.#queued.set(priority, (band = new Map()));
    band.set(owner, (band.get(owner) ?? 0) + 1);
  }

  /** A job of `owner` left band `priority` (started, cancelled or superseded). */
  delete(priority: P, owner: string | undefined): void {
    const band = this.#queued.get(priority);
    const left = (band?.get(owner) ?? 0) - 1;
    if (left > 0) band?.set(owner, left);
    else band?.delete(owner);
  }

  /** A job of `owner` started: its turn is now. */
  started(owner: string | undefined): void {
    if (owner === undefined) return;
    this.#turns.delete(owner);
    this.#turns.set(owner, this.#starts++);
    if (this.#turns.size > REMEMBERED_OWNERS) this.#turns.delete(this.#turns.keys().next().value as string);
  }

  /** How many owners have jobs queued in band `priority`. */
  owners(priority: P): number {
    return this.#queued.get(priority)?.size ?? 0;
  }

  /** When `owner` last started a job; -1 if never (or long ago). */
  turn(owner: string | undefined): number {
    return owner === undefined ? -1 : (this.#turns.get(owner) ?? -1);
  }
}
