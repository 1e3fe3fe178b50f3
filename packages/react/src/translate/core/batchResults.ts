import type { BatchStatus, BatchTranslateState, TranslationResult, TranslationStatus } from './batchState.js';

/** An item's result without its source string. */
export type ItemResult = Omit<TranslationResult, 'source'>;

/**
 * The results of one batch, built for a stream of small changes: each source
 * string knows its places in the list (a string may repeat), and the counts
 * behind `progress` and `status` are kept as items change, so one item's
 * change costs the same in a list of 20 as in a list of 20,000. The list
 * itself is copied only when a snapshot is asked for, at most once per
 * notification.
 *
 * @example
 * const results = new BatchResults(items.map((source) => ({ source, text: '', status: 'queued', error: null })));
 * results.set('Hello', { text: 'Bonjour', status: 'done', error: null });
 * results.snapshot(false).progress; // { done: 1, total: items.length }
 */
export class BatchResults {
  readonly #results: TranslationResult[];
  /** Where each source string is in the list. */
  readonly #places = new Map<string, number[]>();
  readonly #counts: Record<TranslationStatus, number> = { queued: 0, streaming: 0, done: 0, error: 0, cancelled: 0 };

  constructor(results: readonly TranslationResult[]) {
    this.#results = [...results];
    this.#results.forEach((result, index) => {
      const places = this.#places.get(result.source);
      if (places) places.push(index);
      else this.#places.set(result.source, [index]);
      this.#counts[result.status] += 1;
    });
  }

  /** Every result, in the items' order. The live list: read it, do not keep it. */
  get all(): readonly TranslationResult[] {
    return this.#results;
  }

  /** The result of `source`, or `undefined` when it is not an item. */
  get(source: string): TranslationResult | undefined {
    const first = this.#places.get(source)?.[0];
    return first === undefined ? undefined : this.#results[first];
  }

  /** Sets the result of every place of `source`; false when nothing changed (or it is not an item). */
  set(source: string, result: ItemResult): boolean {
    const places = this.#places.get(source);
    const current = places && this.#results[places[0] as number];
    if (!places || !current) return false;
    if (current.text === result.text && current.status === result.status && current.error === result.error) return false;
    // One object for every place, so repeated strings repeat their result.
    const next: TranslationResult = { source, text: result.text, status: result.status, error: result.error };
    for (const index of places) {
      this.#counts[(this.#results[index] as TranslationResult).status] -= 1;
      this.#counts[next.status] += 1;
      this.#results[index] = next;
    }
    return true;
  }

  /** The batch's status from the counts: `live` while jobs of it are in the pool. */
  status(live: boolean): BatchStatus {
    const { done, error, cancelled } = this.#counts;
    const total = this.#results.length;
    if (live) return 'streaming';
    if (total === 0 || done + error + cancelled < total) return error ? 'error' : cancelled ? 'cancelled' : 'idle';
    return done === total ? 'done' : error ? 'error' : 'cancelled';
  }

  /** A snapshot: a copy of the list, with progress and status. */
  snapshot(live: boolean): BatchTranslateState {
    return {
      results: [...this.#results],
      progress: { done: this.#counts.done, total: this.#results.length },
      status: this.status(live),
    };
  }
}
