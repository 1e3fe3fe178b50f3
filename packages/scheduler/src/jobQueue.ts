import { PRIORITY_ORDER } from './constants.js';
import { OwnerShares } from './ownerShares.js';
import type { Priority } from './types.js';

export interface Queueable {
  readonly priority: Priority;
  readonly task: string;
  /** Who submitted it (a shared pool's client); fairness takes turns between owners. */
  readonly owner?: string | undefined;
  /** Submission order across every band and task; set by the queue. */
  order?: number;
}

/**
 * Priority bands, FIFO within each, kept as one list per task inside a band
 * (per owner and task when jobs have owners).
 *
 * Every scheduling rule looks at a job's task, owner and band, never at its
 * place behind other jobs of the same task, so the head of each list stands
 * for all of it. A batch of 10 000 items is then one entry to look at, not
 * 10 000: the pool's cost per job stays flat however long the queue grows.
 * Beside the lists it keeps each band's owners and their turns (`OwnerShares`).
 */
export class JobQueue<T extends Queueable> {
  /** Band by band, each task's jobs (each owner's task's), oldest first. */
  readonly #bands = new Map(PRIORITY_ORDER.map((p) => [p, new Map<string, T[]>()]));
  readonly #shares = new OwnerShares<Priority>();
  #order = 0;

  push(item: T): void {
    item.order = this.#order++;
    this.#shares.add(item.priority, item.owner);
    const band = this.#band(item.priority);
    const key = listKey(item);
    const jobs = band.get(key);
    if (jobs) jobs.push(item);
    else band.set(key, [item]);
  }

  remove(item: T): void {
    const band = this.#band(item.priority);
    const key = listKey(item);
    const jobs = band.get(key) ?? [];
    // Almost always the first: jobs leave the queue by starting.
    const at = jobs.indexOf(item);
    if (at < 0) return;
    if (at === 0) jobs.shift();
    else jobs.splice(at, 1);
    if (jobs.length === 0) band.delete(key);
    this.#shares.delete(item.priority, item.owner);
  }

  /** Takes a job out to start it: its owner's turn is now. */
  start(item: T): void {
    this.remove(item);
    this.#shares.started(item.owner);
  }

  /** How many owners have jobs queued in band `priority` (jobs with no owner count as one). */
  owners(priority: Priority): number {
    return this.#shares.owners(priority);
  }

  /** When `owner` last started a job, in start order; -1 if never. */
  turn(owner: string | undefined): number {
    return this.#shares.turn(owner);
  }

  /**
   * The first queued job of each task, band by band (highest first), in
   * submission order within a band. Scanning these gives the same answer as
   * scanning every job whenever the question is about task and band.
   */
  heads(): T[] {
    const heads: T[] = [];
    for (const band of this.#bands.values()) if (band.size > 0) heads.push(...inOrder([...band.values()].map((jobs) => jobs[0] as T)));
    return heads;
  }

  /** Every job, highest band first, FIFO within a band. */
  all(): T[] {
    return [...this.#bands.values()].flatMap((band) => inOrder([...band.values()].flat()));
  }

  count(priority: Priority): number {
    let n = 0;
    for (const jobs of this.#band(priority).values()) n += jobs.length;
    return n;
  }

  #band(priority: Priority): Map<string, T[]> {
    // Every priority has a band from the start; specs are validated.
    return this.#bands.get(priority) as Map<string, T[]>;
  }
}

/**
 * The list a job joins: its task's, or its owner's task's, so that one
 * owner's jobs never hide another's behind a task name they share. (Without
 * owners, nothing is built: the common case allocates no key.)
 */
function listKey(item: Queueable): string {
  return item.owner === undefined ? item.task : `${item.owner}\u0000${item.task}`;
}

function inOrder<T extends Queueable>(items: T[]): T[] {
  return items.length > 1 ? items.toSorted((a, b) => (a.order as number) - (b.order as number)) : items;
}
