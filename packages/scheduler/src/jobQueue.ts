import { PRIORITY_ORDER } from './constants.js';
import type { Priority } from './types.js';

/** Priority bands, FIFO within each. */
export class JobQueue<T extends { priority: Priority }> {
  readonly #bands = new Map<Priority, T[]>(PRIORITY_ORDER.map((p) => [p, []]));

  push(item: T): void {
    this.#band(item.priority).push(item);
  }

  remove(item: T): boolean {
    const band = this.#band(item.priority);
    const i = band.indexOf(item);
    if (i < 0) return false;
    band.splice(i, 1);
    return true;
  }

  /** The item that would start next, ignoring any other rule. */
  head(): T | undefined {
    for (const p of PRIORITY_ORDER) {
      const band = this.#band(p);
      if (band.length > 0) return band[0];
    }
    return undefined;
  }

  /** Every item, highest band first, FIFO within a band. */
  *[Symbol.iterator](): IterableIterator<T> {
    for (const p of PRIORITY_ORDER) yield* this.#band(p);
  }

  count(priority?: Priority): number {
    if (priority) return this.#band(priority).length;
    let n = 0;
    for (const band of this.#bands.values()) n += band.length;
    return n;
  }

  /** Empties the queue and returns what it held. */
  drain(): T[] {
    const all = [...this];
    for (const band of this.#bands.values()) band.length = 0;
    return all;
  }

  #band(priority: Priority): T[] {
    // Every priority has a band from the constructor; the spec was validated.
    return this.#bands.get(priority)!;
  }
}
