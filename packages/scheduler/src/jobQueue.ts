import { PRIORITY_ORDER } from './constants.js';
import type { Priority } from './types.js';

export interface Queueable {
  readonly priority: Priority;
  readonly task: string;
  /** Submission order across every band and task; set by the queue. */
  order?: number;
}

/**
 * Priority bands, FIFO within each, kept as one list per task inside a band.
 *
 * Every scheduling rule looks at a job's task and band, never at its place
 * behind other jobs of the same task, so the head of each task's list stands
 * for all of it. A batch of 10 000 items is then one entry to look at, not
 * 10 000: the pool's cost per job stays flat however long the queue grows.
 */
export class JobQueue<T extends Queueable> {
  /** Band by band, each task's jobs, oldest first. */
  readonly #bands = new Map(PRIORITY_ORDER.map((p) => [p, new Map<string, T[]>()]));
  #order = 0;

  push(item: T): void {
    item.order = this.#order++;
    const band = this.#band(item.priority);
    const jobs = band.get(item.task);
    if (jobs) jobs.push(item);
    else band.set(item.task, [item]);
  }

  remove(item: T): void {
    const band = this.#band(item.priority);
    const jobs = band.get(item.task) ?? [];
    // Almost always the first: jobs leave the queue by starting.
    const at = jobs.indexOf(item);
    if (at === 0) jobs.shift();
    else if (at > 0) jobs.splice(at, 1);
    if (jobs.length === 0) band.delete(item.task);
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

function inOrder<T extends Queueable>(items: T[]): T[] {
  return items.length > 1 ? items.toSorted((a, b) => (a.order as number) - (b.order as number)) : items;
}
