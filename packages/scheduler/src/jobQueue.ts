import { PRIORITY_ORDER } from './constants.js';
import type { Priority } from './types.js';

export interface Queueable {
  readonly priority: Priority;
  readonly task: string;
}

interface Entry<T> {
  readonly item: T;
  /** Submission order, across every band and task. */
  readonly seq: number;
}

/** A FIFO whose shift is O(1) however long it grows. */
class Fifo<E> {
  #items: E[] = [];
  #head = 0;

  get length(): number {
    return this.#items.length - this.#head;
  }

  first(): E | undefined {
    return this.#items[this.#head];
  }

  push(item: E): void {
    this.#items.push(item);
  }

  shift(): void {
    this.#head += 1;
    if (this.#head > 32 && this.#head * 2 > this.#items.length) {
      this.#items = this.#items.slice(this.#head);
      this.#head = 0;
    }
  }

  delete(match: (item: E) => boolean): void {
    const i = this.#items.findIndex((item, index) => index >= this.#head && match(item));
    if (i === this.#head) this.shift();
    else if (i > 0) this.#items.splice(i, 1);
  }

  *[Symbol.iterator](): IterableIterator<E> {
    for (let i = this.#head; i < this.#items.length; i += 1) yield this.#items[i] as E;
  }
}

/**
 * Priority bands, FIFO within each, kept as one FIFO per task inside a band.
 *
 * Every scheduling rule looks at a job's task and band, never at its place
 * behind other jobs of the same task, so the head of each task's FIFO stands
 * for all of it. A batch of 10 000 items is then one entry to look at, not
 * 10 000: the pool's cost per job stays flat however long the queue grows.
 */
export class JobQueue<T extends Queueable> {
  readonly #bands = new Map<Priority, Map<string, Fifo<Entry<T>>>>(PRIORITY_ORDER.map((p) => [p, new Map()]));
  readonly #counts = new Map<Priority, number>(PRIORITY_ORDER.map((p) => [p, 0]));
  readonly #seqOf = new Map<T, number>();
  #nextSeq = 0;

  push(item: T): void {
    const band = this.#band(item.priority);
    const seq = this.#nextSeq++;
    let fifo = band.get(item.task);
    if (!fifo) {
      fifo = new Fifo();
      band.set(item.task, fifo);
    }
    fifo.push({ item, seq });
    this.#seqOf.set(item, seq);
    this.#counts.set(item.priority, this.count(item.priority) + 1);
  }

  remove(item: T): boolean {
    if (!this.#seqOf.has(item)) return false;
    const band = this.#band(item.priority);
    const fifo = band.get(item.task);
    // Almost always the head: jobs leave the queue by starting.
    if (fifo?.first()?.item === item) fifo.shift();
    else fifo?.delete((e) => e.item === item);
    if (fifo?.length === 0) band.delete(item.task);
    this.#seqOf.delete(item);
    this.#counts.set(item.priority, this.count(item.priority) - 1);
    return true;
  }

  /**
   * The first queued job of each task, band by band (highest first), in
   * submission order within a band. Scanning these gives the same answer as
   * scanning every job whenever the question is about task and band.
   */
  *heads(): IterableIterator<T> {
    for (const p of PRIORITY_ORDER) {
      const band = this.#band(p);
      if (band.size === 0) continue;
      const firsts: Array<Entry<T>> = [];
      for (const fifo of band.values()) {
        const first = fifo.first();
        if (first) firsts.push(first);
      }
      if (firsts.length > 1) firsts.sort((a, b) => a.seq - b.seq);
      for (const entry of firsts) yield entry.item;
    }
  }

  /** The tasks that have queued work. */
  *tasks(): IterableIterator<string> {
    for (const band of this.#bands.values()) yield* band.keys();
  }

  /** Every job, highest band first, FIFO within a band. */
  *[Symbol.iterator](): IterableIterator<T> {
    for (const p of PRIORITY_ORDER) {
      const entries: Array<Entry<T>> = [];
      for (const fifo of this.#band(p).values()) entries.push(...fifo);
      entries.sort((a, b) => a.seq - b.seq);
      for (const entry of entries) yield entry.item;
    }
  }

  count(priority?: Priority): number {
    if (priority) return this.#counts.get(priority) ?? 0;
    let n = 0;
    for (const c of this.#counts.values()) n += c;
    return n;
  }

  /** Empties the queue and returns what it held. */
  drain(): T[] {
    const all = [...this];
    for (const band of this.#bands.values()) band.clear();
    for (const p of PRIORITY_ORDER) this.#counts.set(p, 0);
    this.#seqOf.clear();
    return all;
  }

  #band(priority: Priority): Map<string, Fifo<Entry<T>>> {
    // Every priority has a band from the constructor; specs are validated.
    return this.#bands.get(priority)!;
  }
}
